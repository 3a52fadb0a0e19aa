//#Safe
// A loop that runs three times, decrementing a global through a pointer, and a bitwise `|` of two
// known values: every execution ends after a few steps, so the deep search's unrolling runs out of
// executions and proves the assertions (the bitwise operator's values at the points it reaches are
// learned from the traces that went through it).
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }

int g = 8;

int main(void) {
  char cells[3] = {3, 1};
  int *p = &g;
  cells[2] = 1 + (~3);
  for (int i = 0; i < 3; i++) {
    (*p)--;
  }
  int flags = cells[0] | cells[2];
  __VERIFIER_assert(g == 5);
  __VERIFIER_assert(flags == -1);
  return 0;
}
