//#Safe
// K&R-style (C89) function definitions: the parameters' types come from the declarations between
// the declarator and the body, and a parameter without one is an `int`.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "kr_definition_safe.c", 5, "reach_error"); }

long scale(x, num, den)
  long x;
  short num, den;
{
  return x * num / den;
}

int add(a, b)
{
  return a + b;
}

int main() {
  if (scale(10, 3, 2) != 15 || add(2, 3) != 5) {
    reach_error();
  }
  return 0;
}
