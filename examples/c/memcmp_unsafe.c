//#Unsafe
// memcmp compares bytes as unsigned char and, unlike strncmp, goes on past a null: the buffers
// differ only after their nulls ('q' < 'r'), so the result is negative and the last assertion fails.
#include <assert.h>
#include <string.h>

int main(void) {
  char a[4] = {'x', 0, 'p', 'q'};
  char b[4] = {'x', 0, 'p', 'r'};
  assert(strncmp(a, b, 4) == 0);
  assert(memcmp(a, b, 2) == 0);
  assert(memcmp(a, b, 4) < 0);
  assert(memcmp(a, b, 4) == 0);
  return 0;
}
