//#Unknown unsupported: variable of type pointer
//#Safe
// Pointers are not translated yet: the answer is UNKNOWN with the construct and its line.
extern void reach_error(void);

int main(void) {
  int x = 1;
  int *p = &x;
  *p = 2;
  if (x != 2) reach_error();
  return 0;
}
