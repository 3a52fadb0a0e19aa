//#Unsafe
// A loop writes one element past the end of a variable-length array: the write at `a[n]` fails
// the dereference check against the object's length `4 * n` (the array lives in memory and every
// access at a non-constant index is checked).
extern int __VERIFIER_nondet_int(void);

int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100) return 0;
  int a[n];
  for (int i = 0; i <= n; i++) a[i] = i;
  return a[0];
}
