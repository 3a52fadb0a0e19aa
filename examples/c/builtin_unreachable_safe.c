//#Safe
// `__builtin_unreachable()`: reaching it is undefined (GCC's manual), so no run goes on past it —
// the programmer's promise that `x` is never 42 here is taken at its word, as Ultimate does.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x == 42) {
    __builtin_unreachable();
  }
  if (x == 42) {
    reach_error();
  }
  return 0;
}
