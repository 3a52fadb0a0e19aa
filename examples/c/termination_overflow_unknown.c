//#Unknown control flow depends on unconstrained values
//#Terminating
// Over unbounded integers this loop runs forever from x = -1, y = 0, z = 0 (y grows, z stays),
// but in C y overflows after finitely many iterations (undefined behaviour): no run without it is
// infinite, and the geometric argument is no witness of nontermination. UNKNOWN, never
// NONTERMINATING.
// (No ranking function exists either: termination needs the overflow bound.)
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
