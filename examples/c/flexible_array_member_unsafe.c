//#Unsafe
// A flexible array member's elements end where the object does: d[2] lies beyond 4 + 8 bytes.
#include <stdlib.h>
struct str { int n; int d[]; };
int main(void) {
  struct str *s = malloc(sizeof(struct str) + 8);
  s->d[2] = 1;
  free(s);
  return 0;
}
