//#Unknown the error trace depends on an over-approximation (memPart)
//#Safe
// A `memset` whose size is not known to cover the whole object: the front end does not follow the
// executions where it covers part of it (an `assert false` after applying the
// `{:overapproximation}` function `~memPart`), so the answer is UNKNOWN, never UNSAFE — here the
// program is safe. The concrete executor that looks for a witness execution first must stop at
// that application too: it once took its value as "any value", reached the `assert false` and
// answered UNSAFE.
extern int __VERIFIER_nondet_int(void);
void *memset(void *s, int c, unsigned long n);

int main(void) {
  int a[30];
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 120)
    return 0;
  memset(a, 0, n);
  return 0;
}
