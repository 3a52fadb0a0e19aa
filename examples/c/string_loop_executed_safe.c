//#Safe
// Objects allocated once (here `buf` and the string literal) have fixed addresses, so the
// program's state stays concrete and the executor runs it: 1,000 calls of `strlen` decide it
// at once, where the CEGAR loop would need an invariant over every character.
#include <string.h>
extern void __VERIFIER_error(void);

int main() {
  char buf[16];
  strcpy(buf, "lapidary");
  int total = 0;
  for (int i = 0; i < 1000; i++) {
    total += (int)strlen(buf);
  }
  if (total != 8000 || strcmp(buf, "lapidary") != 0) {
    __VERIFIER_error();
  }
  return 0;
}
