//#Safe
// A local whose address is taken lives in memory; writes through the pointer are seen by the variable.
extern void reach_error(void);

void set(int *p, int v) { *p = v; }

int main(void) {
  int x = 1;
  int *p = &x;
  *p = 2;
  if (x != 2) reach_error();
  set(&x, 7);
  if (*p != 7) reach_error();
  return 0;
}
