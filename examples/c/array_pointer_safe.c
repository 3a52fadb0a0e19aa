//#Safe
// An array that decays to a pointer lives in memory; the callee's writes stay inside it. Its loop
// stores at `a.offset + 4 * i`, a strided fill: the invariant says what every cell it passed holds.
extern void reach_error(void);

void fill(int *a, int n, int v) {
  for (int i = 0; i < n; i++) {
    a[i] = v;
  }
}

int main(void) {
  int a[100];
  fill(a, 100, 0);
  a[99] = 1;
  if (a[99] != 1) reach_error();
  return 0;
}
