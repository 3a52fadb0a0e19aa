//#Unsafe
// `a ==> b ==> c` is `a ==> (b ==> c)`: false for x = 6.
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  //@ assert x > -5 ==> x > 5 ==> x == 7;
  return 0;
}
