//#Safe
// A pointer walks a global array in steps of one `int` while it is below `a + n`: its offset stays
// a multiple of 4 and at most `4 * n <= 400`, the array's size in bytes (the stride and the loop's
// guard weakened by one are the invariant's candidates; Houdini keeps both).
extern int __VERIFIER_nondet_int(void);
int a[100];

int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  int *p = a;
  while (p < a + n) *p++ = 0;
  return 0;
}
