//#Unknown the error trace depends on an over-approximation
//#Unsafe
// `one` takes a `char`: a call through `int (*)()` passes an `int` (the default argument
// promotions), which C leaves undefined. The branch of the dispatch that calls `one` is not
// translated (an over-approximation): the counterexample through it is not reported.
extern void reach_error(void);
int one(char c) { return c; }

int main(void) {
  int (*g)() = one;
  if (g(5) == 5) reach_error();
  return 0;
}
