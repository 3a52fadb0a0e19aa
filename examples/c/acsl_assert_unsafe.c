//#Unsafe
// ACSL assertions are checked; here x wraps to 0 as an unsigned char.
int main(void) {
  unsigned char x = 255;
  x = x + 1;
  //@ assert x == 256;
  return 0;
}
