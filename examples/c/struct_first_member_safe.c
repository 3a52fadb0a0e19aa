//#Safe
// A struct pointer may become a pointer to the object the struct starts with (its first member):
// accesses through it are at that member's type.
extern void reach_error(void);

struct inner { int a[2]; };
struct outer { struct inner in; long b; };

int main(void) {
  struct outer o = {{{1, 2}}, 3};
  int *p = (int *)&o;
  struct inner *q = (struct inner *)&o;
  p[1] = 5;
  if (q->a[1] != 5 || o.in.a[0] != 1 || o.b != 3) reach_error();
  return 0;
}
