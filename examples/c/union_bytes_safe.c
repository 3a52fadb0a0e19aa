//#Safe
// A union's members share bytes: after a write to one member, an integer of another member
// that overlaps it reads the bytes written, little-endian as on x86 (C11 6.5.2.3p3, footnote
// 95), and keeps its other bytes.
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);

union word {
  unsigned int i;
  unsigned char b[4];
  struct {
    unsigned short lo, hi;
  } h;
};

int main(void) {
  union word x;
  x.i = 0x11223344u;
  if (x.b[0] != 0x44 || x.b[3] != 0x11 || x.h.hi != 0x1122)
    __VERIFIER_error();
  x.b[1] = 0xff;
  if (x.i != 0x1122ff44u)
    __VERIFIER_error();
  int n = __VERIFIER_nondet_int();
  union {
    int s;
    unsigned u;
    signed char c;
  } y;
  y.s = n;
  if (y.u != (unsigned)n || y.c != (signed char)n)
    __VERIFIER_error();
  return 0;
}
