//#Unsafe
// The violation witness states the path in C terms (tests/witness.rs): the value `x` gets, the
// branch taken at `if (x > 5)`, the call of `twice` and its return, the value of `y`.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int twice(int v) {
  return v * 2;
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 5) {
    return 0;
  }
  int y = twice(x);
  if (y == 8) {
    reach_error();
  }
  return 0;
}
