//#Unsafe
// Members of one type are the same value: the write of `a` is read through `b`.
int main() {
  union { int a; int b; } u;
  u.a = 1;
  //@ assert u.b == 2;
  return 0;
}
