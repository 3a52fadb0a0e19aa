//#Safe
// An array that decays to a pointer lives in memory; the callee's writes stay inside it.
extern void reach_error(void);

void fill(int *a, int n, int v) {
  for (int i = 0; i < n; i++) {
    a[i] = v;
  }
}

int main(void) {
  int a[4];
  fill(a, 4, 0);
  a[3] = 1;
  if (a[3] != 1) reach_error();
  return 0;
}
