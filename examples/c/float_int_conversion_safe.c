//#Safe
// Every unsigned char converts to float exactly and back; an int beyond 2^24 does not survive
// the round trip through float's 24-bit significand, but does through double's 53 bits.
extern void reach_error(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assert(int c) { if (!c) reach_error(); }
int main(void) {
  unsigned char c = __VERIFIER_nondet_uchar();
  float g = c;
  __VERIFIER_assert(g >= 0.0f && g <= 255.0f && (unsigned char)g == c);
  int n = 16777217;
  __VERIFIER_assert((int)(float)n != n && (int)(double)n == n);
  return 0;
}
