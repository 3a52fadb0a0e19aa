//#Safe
// Extra arguments of different types (a pointer, then a `long long`), and a copy of the list
// that starts where the original was copied.
#include <stdarg.h>

long long shifted(int n, ...) {
  va_list ap, again;
  va_start(ap, n);
  va_copy(again, ap);
  int *cell = va_arg(ap, int *);
  long long w = va_arg(ap, long long);
  int *same = va_arg(again, int *);
  va_end(again);
  va_end(ap);
  //@ assert cell == same;
  return *cell + w;
}

int main(void) {
  int a = 3;
  //@ assert shifted(1, &a, 10LL) == 13;
  return 0;
}
