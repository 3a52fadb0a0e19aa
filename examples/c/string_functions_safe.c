//#Safe
// The string functions of <string.h> are loops over the characters in memory: exact, with
// every character read or written checked.
#include <stdlib.h>
#include <string.h>
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);

int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  char *s = malloc(n);
  if (!s) return 0;
  for (int i = 0; i < n - 1; i++) s[i] = 'a';
  s[n - 1] = 0;
  if (strlen(s) != n - 1) __VERIFIER_error();
  free(s);
  return 0;
}
