//#Unsafe
// `va_arg` past the extra arguments the call passed reads outside the object that holds them.
#include <stdarg.h>

int second(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int a = va_arg(ap, int);
  int b = va_arg(ap, int);
  va_end(ap);
  return a + b;
}

int main(void) {
  return second(1, 7);
}
