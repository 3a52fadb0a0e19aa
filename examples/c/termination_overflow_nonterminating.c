//#Nonterminating
// Over mathematical integers this loop runs forever from x = -1, y = 0, z = 0 (y grows, z stays).
// In C, y overflows after finitely many iterations: undefined behaviour, after which no behaviour,
// nontermination included, is excluded. NONTERMINATING, with the argument over mathematical
// integers and that remark (no ranking function exists: termination would need wrapping
// arithmetic, which C does not promise for signed integers).
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  int z = __VERIFIER_nondet_int();
  while (z >= 0) {
    if (x < 0 && y < 0) {
      z = z - 1;
    }
    y = y - x;
    x = x - 1;
  }
}
