//#Safe
// A shift by an unknown amount is over-approximated like the bitwise operators: an arithmetic
// right shift keeps the sign and moves towards zero, and shifting 0 gives 0.
extern int __VERIFIER_nondet_int(void);

int main() {
  int x = __VERIFIER_nondet_int();
  int s = __VERIFIER_nondet_int();
  if (s < 0 || s > 31) {
    return 0;
  }
  int r = x >> s;
  //@ assert x < 0 || (0 <= r && r <= x);
  int z = 0;
  //@ assert (z << s) == 0;
  return 0;
}
