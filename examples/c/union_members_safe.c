//#Safe
// A union holds one value: a member at the same offset with the same type reads it, the
// members of a struct member keep their values when another part of it is written.
#include <stdlib.h>
union val {
  int z;
  struct { int x, y; } s;
  int *p;
};
struct node { int tag; union val v; };
int main() {
  union val u;
  u.s.y = 11;
  u.z = 3;
  u.s.x = 20;
  //@ assert u.z == 20;
  //@ assert sizeof(union val) == 8;
  struct node *n = malloc(sizeof(struct node));
  if (n == 0) return 0;
  n->v.s.x = 4;
  n->v.s.y = 5;
  //@ assert n->v.z == 4;
  //@ assert n->v.s.y == 5;
  union val w = { .s = { 1, 2 } };
  //@ assert w.z == 1 && w.s.y == 2;
  struct node m = { 7 };
  //@ assert m.v.z == 0 && m.v.p == 0;
  free(n);
  return 0;
}
