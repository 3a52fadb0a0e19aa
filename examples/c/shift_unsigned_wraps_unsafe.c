//#Unsafe
// An unsigned left shift wraps modulo 2^32 (C11 6.5.7p4): `3u << 31` is 2^31. The amount is not a
// constant, so the shift is an over-approximated function whose value is `x * 2^s`; the front end
// reduces it modulo 2^32 itself, so the executor's run reaches the error as gcc's does.
extern void reach_error(void);

int main() {
  unsigned int x = 3;
  unsigned int s = 31;
  unsigned int y = x << s;
  if (y == 0x80000000u) {
    reach_error();
  }
  return 0;
}
