//#Safe
// `toupper` and `tolower` in the "C" locale: only the letters change.
#include <ctype.h>

extern unsigned char __VERIFIER_nondet_uchar(void);

int main() {
  int c = __VERIFIER_nondet_uchar();
  int u = toupper(c);
  if (c >= 'a' && c <= 'z') {
    //@ assert u == c - 32;
  } else {
    //@ assert u == c;
  }
  //@ assert tolower(u) == c || (c >= 'A' && c <= 'Z');
  return 0;
}
