//#Safe
// Structs (and arrays of structs) are flattened into one variable or map per field; brace elision,
// designated initialisers, struct assignment.
#include <assert.h>
struct P { int x; unsigned char c; int a[3]; };
struct P g = { 1, 300, {4, 5} };
struct Q { struct P p; int y; } q[2];
int main() {
  struct P l = { .c = 7, .x = 2 };
  struct P m;
  m = l;
  q[1].p.a[2] = 9;
  q[0] = q[1];
  assert(g.x == 1 && g.c == 44 && g.a[1] == 5 && g.a[2] == 0);
  assert(m.x == 2 && m.c == 7 && m.a[0] == 0);
  assert(q[0].p.a[2] == 9 && q[0].y == 0);
  struct P arr[2] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
  assert(arr[1].x == 6 && arr[1].a[2] == 10);
  return 0;
}
