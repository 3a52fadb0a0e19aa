//#Safe
// `printf` reads its arguments and writes no memory of the program: a string or pointer argument
// is only evaluated (here a string literal for `%s` and the address of a local for `%p`), and the
// program's state after the call is the state before it.
extern int printf(const char *, ...);
void reach_error(void);

int main(void) {
  char *name = "abc";
  int x = 41;
  printf("%s has %d at %p\n", name, x, (void *)&x);
  x++;
  if (x != 42 || name[1] != 'b') {
    reach_error();
  }
  return 0;
}
