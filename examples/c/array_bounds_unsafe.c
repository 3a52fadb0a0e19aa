//#Unsafe
// An array index out of bounds is a memory-safety violation.
extern int __VERIFIER_nondet_int(void);
int a[4];

int main(void) {
  int i;
  for (i = 0; i <= 4; i++) {
    a[i] = i;
  }
  return a[0];
}
