//#Unsafe
// Calling an uninitialised function pointer is undefined: it may hold no function's address, and
// the call fails its check (both functions would keep the assertion).
int funcA(int x) { return 0; }
int funcB(int x) { return 0; }

int main(void) {
  int (*pA)(int) = &funcA;
  int (*pB)(int) = &funcB;
  int (*pC)(int);
  int z = pC(1);
  //@ assert z == 0;
  return 0;
}
