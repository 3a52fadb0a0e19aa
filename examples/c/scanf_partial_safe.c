//#Safe
// `scanf` reads unknown input: it returns EOF (-1) or the number of items it assigned, and only
// that many of its targets change; the others keep their values.
#include <stdio.h>

int main() {
  int x = 0;
  int y = 5;
  int r = scanf("%d %d", &x, &y);
  if (r <= 0) {
    //@ assert x == 0 && y == 5;
  }
  if (r == 1) {
    //@ assert y == 5;
  }
  return 0;
}
