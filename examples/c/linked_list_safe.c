//#Safe
// A linked stack on the heap: push allocates a node, pop reads and frees the top one.
#include <stdlib.h>
extern void reach_error(void);

struct node {
  int value;
  struct node *next;
};

struct node *push(struct node *top, int v) {
  struct node *c = malloc(sizeof(struct node));
  if (c == NULL) abort();
  c->value = v;
  c->next = top;
  return c;
}

struct node *pop(struct node *top, int *v) {
  struct node *next = top->next;
  *v = top->value;
  free(top);
  return next;
}

int main(void) {
  struct node *s = NULL;
  s = push(s, 1);
  s = push(s, 2);
  int a, b;
  s = pop(s, &a);
  s = pop(s, &b);
  if (a != 2 || b != 1 || s != NULL) reach_error();
  return 0;
}
