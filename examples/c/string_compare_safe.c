//#Safe
// strcmp and strncmp: characters compared up to the first difference or null (or n of them);
// only the sign of the result is fixed by the standard.
#include <string.h>
extern void __VERIFIER_error(void);

int main() {
  if (strcmp("abc", "abd") >= 0) __VERIFIER_error();
  if (strncmp("abc", "abd", 2) != 0) __VERIFIER_error();
  return 0;
}
