//#Unknown the error trace depends on an over-approximation
//#Safe
// An object's address (~ptrToInt) is over-approximated: converting it back to a pointer is not
// followed (an object may lie at that address), so the answer is UNKNOWN, never a wrong verdict.
#include <stdint.h>
extern void reach_error(void);

int main(void) {
  int x = 5;
  uintptr_t a = (uintptr_t)&x;
  int *q = (int *)a;
  if (*q != 5) reach_error();
  return 0;
}
