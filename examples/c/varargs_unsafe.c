//#Unsafe
// The extra arguments reach the callee in order: the sum of 1, 2 and 3 is 6, not 7.
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
  int x = sum(3, 1, 2, 3);
  //@ assert x == 7;
  return 0;
}
