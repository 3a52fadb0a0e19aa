//#Unsafe
// Unsigned arithmetic wraps modulo 2^32: x + 1 is 0 when x is UINT_MAX.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int y = x + 1;
  if (y < x) {
    reach_error();
  }
  return 0;
}
