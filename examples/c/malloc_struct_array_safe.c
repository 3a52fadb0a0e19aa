//#Safe
// An array of structs on the heap: the loop writes both fields of element `i`, at the offsets
// `p.offset + 8 * i` and `p.offset + 8 * i + 4` of one memory row. Each store is a fill of the row
// at a stride of 8 bytes, and the quantified invariants `forall k. 0 <= k < i ==> p[k].x == k`
// and `... p[k].y == -k` carry the fields to the checking loop.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error() {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }

struct point { int x; int y; };

int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  struct point *p = malloc(n * sizeof(struct point));
  if (!p) return 0;
  for (int i = 0; i < n; i++) { p[i].x = i; p[i].y = -i; }
  for (int j = 0; j < n; j++) __VERIFIER_assert(p[j].x + p[j].y == 0);
  free(p);
  return 0;
}
