//#Unknown unsupported: argument of type pointer to `printf`
//#Safe
// A `%n` conversion stores the number of characters printed so far through its pointer argument
// (here 6 into `n`): `printf` then writes the program's memory, which the translation does not
// model, so the answer is UNKNOWN rather than a verdict about a program that ignores the store.
extern int printf(const char *, ...);
void reach_error(void);

int main(void) {
  int n = 0;
  printf("hello %n\n", &n);
  if (n != 6) {
    reach_error();
  }
  return 0;
}
