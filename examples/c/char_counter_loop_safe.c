//#Safe
// Loop counters of narrow types: each increment is a conversion back to the type (a wrap-around
// modulo 256 or 65536 that never happens here); the invariants relate the counters to `count`.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_error(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  int count = 0;
  for (char c = 0; c < 26; c++) count++;
  if (count != 26) __VERIFIER_error();
  unsigned short s = 0;
  for (int i = 0; i < n; i++) s++;
  if (s != n) __VERIFIER_error();
  return 0;
}
