//#Safe
// Function pointers are {base, offset} pointers (each function whose address is taken has its own
// base); a call through one dispatches over those functions. They are stored in arrays, struct
// fields (on the heap too), passed, returned, compared, converted to `void *` and back.
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

typedef int (*binop)(int, int);
int add(int a, int b) { return a + b; }
int sub(int a, int b) { return a - b; }
int twice(int a) { return 2 * a; }

struct ops {
  binop op;
  int k;
};

binop pick(int c) { return c ? add : &sub; }
int apply(int (*f)(int, int), int x) { return f(x, 1); }
binop global_op = sub;

int main(void) {
  binop table[2] = {add, sub};
  int c = __VERIFIER_nondet_int();
  int r = table[c != 0](5, 2);
  if (c && r != 3) reach_error();
  if (!c && r != 7) reach_error();
  struct ops *o = malloc(sizeof(struct ops));
  if (!o) return 0;
  o->op = global_op;
  o->k = 3;
  if (o->op(o->k, 1) != 2) reach_error();
  free(o);
  void *v = (void *)add;
  binop back = (binop)v;
  if (back != add || back == table[1]) reach_error();
  if ((*back)(1, 1) != 2) reach_error();
  if (pick(0)(4, 1) != 3) reach_error();
  if (apply(add, 4) != 5) reach_error();
  // a pointer without prototype: the `char` argument is promoted to `int`
  int (*any)() = twice;
  if (any((char)3) != 6) reach_error();
  binop none = 0;
  if (none) reach_error();
  return 0;
}
