//#Safe
// Compound literals at file scope are objects of static storage (C11 6.5.2.5p5): each one is
// distinct, initialised once before `main`, and lives for the whole run.
extern void reach_error(void);
struct s { int a; int b; };
int *p = (int[2]){2, 4};
int *r = (int[2]){2, 4};
struct s *q = &(struct s){1, 2};

int main() {
  p[0] = 5;
  if (r[0] != 2 || p == r || q->a + q->b != 3 || p[1] != 4) {
    reach_error();
  }
  return 0;
}
