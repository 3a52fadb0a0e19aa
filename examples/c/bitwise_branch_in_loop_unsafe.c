//#Unsafe
// The loop body is one letter with two branches, and `|` is an over-approximation confirmed by
// evaluating it: the first path the re-validation finds for the trace (the then-branch in every
// iteration) is infeasible with `|` evaluated, the execution takes the else-branch from the second
// iteration on (x = 5: y0 = 5 after the first, then 5 - (5 | y1) == 0).
extern void abort(void);
void reach_error(void) {}
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x < 4 || x > 5) return 0;
  int y0 = 0, y1 = 0;
  for (int i = 0; i < x; i++) {
    if (5 - (y0 | y1)) y0 = x; else y1 = ((1 - y1) == i);
  }
  if (y0 == 5) { reach_error(); abort(); }
  return 0;
}
