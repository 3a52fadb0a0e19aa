//#Safe
// `goto` in a function with an object in memory: the object belongs to the function's outermost
// block and is allocated before every label, so it lives wherever the jumps go.
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);

int main() {
  int count = 0;
  int *p = &count;
loop:
  if (__VERIFIER_nondet_int()) goto done;
  if (*p < 1000) *p += 1;
  goto loop;
done:
  if (count < 0) __VERIFIER_error();
  return 0;
}
