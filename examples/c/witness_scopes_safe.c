//#Safe
// The correctness witness names C variables as they are in scope at each loop (tests/witness.rs):
// `i` of the `for` header at the first loop, the local `g` (which hides the global) at the second.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int g = 0;
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  int s = 0;
  for (int i = 0; i < n; i++) {
    s += 2;
    g++;
  }
  int x = 0;
  {
    int g = 5;
    while (x < g) x++;
  }
  if (s % 2 != 0 || s < 0) reach_error();
  return 0;
}
