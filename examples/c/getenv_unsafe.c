//#Unsafe
// `getenv` returns null or a string of the environment, whose characters are arbitrary: the
// first one need not be 'a'.
#include <stdlib.h>

int main(void) {
  char *home = getenv("HOME");
  if (home != 0) {
    char c = home[0];
    //@ assert c == 'a';
  }
  return 0;
}
