//#Safe
// Designator lists name sub-objects (C11 6.7.9p17); a later initialiser of the same one wins.
extern void __VERIFIER_error(void);
struct P { int x; int y[2]; struct { int a, b; } in; };
struct P g = { .in.b = 3, .y[0] = 4 };
int main() {
  struct P p = { .y[1] = 7, .x = 2, .y[1] = 8, .in = { 5 } };
  if (p.y[1] != 8) __VERIFIER_error();
  if (p.in.a != 5 || p.in.b != 0 || p.y[0] != 0) __VERIFIER_error();
  if (g.in.b != 3 || g.y[0] != 4 || g.in.a != 0 || g.x != 0) __VERIFIER_error();
  int m[2][3] = { [1][2] = 9, [0][1] = 1 };
  if (m[1][2] != 9 || m[0][1] != 1 || m[1][1] != 0) __VERIFIER_error();
  return 0;
}
