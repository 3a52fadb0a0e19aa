//#Unsafe
// ACSL contracts: requires checked at each call, ensures at each return (parameters denote their
// values at entry, \old(g) the value of g at entry); a declaration's contract summarises it.
extern int __VERIFIER_nondet_int(void);
int g;
/*@ requires x >= 0;
  @ ensures \result == x + 1 && g == \old(g) + 1;
  @*/
int f(int x) { g++; x = x + 5; return x - 4; }

//@ ensures \result > 0;
int h(void);

int main() {
  g = 3;
  int r = f(2);
  //@ assert r == 3 && g == 4;
  int s = h();
  //@ assert s >= 1;
  int t = f(__VERIFIER_nondet_int());
  return 0;
}
