//#Safe
// A pointer converted to an unrelated pointer type that is never dereferenced (an opaque
// handle, a prototype-less call passing one type where another is declared) is only passed
// around and compared: no memory cell is read through it, so the conversion is translated.
// `offsetof` is a constant of the struct's layout.
#include <stddef.h>
extern void __VERIFIER_error(void);

struct device { int id; int state; };
struct handle;

struct handle *open_device(struct device *d) { return (struct handle *)d; }
int same(struct handle *a, struct handle *b) { return a == b; }

int main(void) {
  struct device d = { 7, 0 };
  struct handle *h = open_device(&d);
  if (!same(h, open_device(&d)))
    __VERIFIER_error();
  if (offsetof(struct device, state) != sizeof(int))
    __VERIFIER_error();
  d.state = 1;
  if (d.id != 7)
    __VERIFIER_error();
  return 0;
}
