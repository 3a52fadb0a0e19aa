//#Unsafe
// A K&R-style definition's body runs when it is called: its assertion fails for `check(1)`.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "kr_definition_unsafe.c", 4, "reach_error"); }

void check(x)
  int x;
{
  if (x == 1) {
    reach_error();
  }
}

int main() {
  check(1);
  return 0;
}
