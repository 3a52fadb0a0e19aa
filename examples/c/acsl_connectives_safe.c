//#Safe
// ACSL's implication `==>` (right-associative, weaker than `||`) and equivalence `<==>`.
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = x > 10 ? x : 0;
  //@ assert x > 10 ==> y == x;
  //@ assert y != 0 <==> x > 10 || y != 0;
  //@ assert x > 20 ==> x > 10 ==> y > 10;
  // right-associative: read as `(x > -5 ==> x > 5) ==> x > 0` it would fail for x = -10
  //@ assert x > -5 ==> x > 5 ==> x > 0;
  //@ assert (y == 0 ==> x <= 10) && (x <= 10 ==> y == 0);
  return 0;
}
