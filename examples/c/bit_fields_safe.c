//#Safe
// Bit-fields (C11 6.7.2.1): a bit-field holds the values of its width, so a write wraps
// (`color` has 2 bits: 3 + 1 is 0) and a signed one keeps its sign bit (`tag`, 5 bits, holds
// -16..15). Read, it is promoted to `int` (`used - 2` is negative). In a heap object each
// bit-field is a cell of its own; a struct copy carries them along.
#include <stdlib.h>
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);

struct node {
  int val;
  unsigned used : 1, color : 2;
  signed tag : 5;
  struct node *next;
};

int main(void) {
  struct node *p = malloc(sizeof(struct node));
  if (!p)
    return 0;
  p->val = 7;
  p->used = 1;
  p->color = 3;
  p->color++;
  p->tag = __VERIFIER_nondet_int();
  if (p->color != 0 || p->used != 1 || p->val != 7)
    __VERIFIER_error();
  if (p->tag < -16 || p->tag > 15)
    __VERIFIER_error();
  if (p->used - 2 >= 0)
    __VERIFIER_error();
  struct node n = *p;
  n.color = 2;
  *p = n;
  if (p->color != 2 || p->used != 1)
    __VERIFIER_error();
  free(p);
  return 0;
}
