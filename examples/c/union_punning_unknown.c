//#Unknown the error trace depends on an over-approximation
//#Unsafe
// After a write of the member `c`, the bytes of `i` that `c` does not cover take unspecified
// values (C11 6.2.6.1p7): the havoced value that violates the assertion is not reported.
int main() {
  union { int i; char c; } u;
  u.c = 2;
  int i = u.i;
  //@ assert i == 2;
  return 0;
}
