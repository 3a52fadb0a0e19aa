//#Safe
// A variadic function: the extra arguments (promoted: `char` to `int`) are read in order by
// `va_arg`.
#include <stdarg.h>

int sum(int count, ...) {
  va_list ap;
  va_start(ap, count);
  int s = 0;
  for (int i = 0; i < count; i++) {
    s += va_arg(ap, int);
  }
  va_end(ap);
  return s;
}

int main(void) {
  char c = 'x';
  int x = sum(3, 1, c, 3);
  //@ assert x == 124;
  return 0;
}
