//#Safe
// `x & y` of two unknown values is not expressed in integer arithmetic: it is an over-approximating
// function with the facts two's complement guarantees (here: a non-negative operand bounds the
// result from above and makes it non-negative), which is all this proof needs.
extern int __VERIFIER_nondet_int(void);

int main() {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  if (y < 0) {
    return 0;
  }
  int r = x & y;
  //@ assert 0 <= r && r <= y;
  int s = x | y;
  //@ assert x < 0 || s >= x;
  return 0;
}
