//#Unsafe
// A local array of 5,000 ints initialised by `{ 1, 2 }`: only the first two cells are given, so
// `a[k] == 0` fails at k = 1 (the front end zeroes the array at once and writes the two cells;
// see array_initialiser_large_safe.c).
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);

int main() {
  int a[5000] = { 1, 2 };
  int k = __VERIFIER_nondet_int();
  if (k >= 1 && k < 5000 && a[k] != 0) __VERIFIER_error();
  return 0;
}
