//#Unknown the error trace depends on an over-approximation
//#Unsafe
// The bytes of `c` after a write of `i` are the implementation's: the havoced value that
// violates the assertion is not reported.
int main() {
  union { int i; char c; } u;
  u.i = 2;
  char c = u.c;
  //@ assert c == 2;
  return 0;
}
