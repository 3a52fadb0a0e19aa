//#Safe
// Integer -> pointer -> integer is exact: an integer becomes the pointer {0, i} to no object, which
// converts back to i (truncated to the integer type). An object's address is the over-approximated
// ~ptrToInt, of which only what holds of every address is assumed: it is not 0.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  void *p = (void *)n;
  if ((int)p != n) reach_error();
  if (p == 0 && n != 0) reach_error();
  if ((void *)0 != (void *)(long)0) reach_error();
  if ((unsigned char)(long)(void *)300 != 44) reach_error();
  int x = 1;
  long a = (long)&x;
  if (a == 0) reach_error();
  if (&x == 0) reach_error();
  return 0;
}
