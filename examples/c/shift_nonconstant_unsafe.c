//#Unsafe
// Shifts by an unknown amount are over-approximated; a counterexample through them is confirmed
// with the shifts evaluated at the model's values (an amount outside [0, 32) is undefined and never
// part of a reported run): `1 << s` is 256 when s is 8.
extern int __VERIFIER_nondet_int(void);

int main() {
  int s = __VERIFIER_nondet_int();
  unsigned int m = 1u << s;
  if (m == 256u) {
    int back = (int)(m >> s);
    //@ assert back != 1;
  }
  return 0;
}
