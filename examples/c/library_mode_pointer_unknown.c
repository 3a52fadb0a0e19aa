//#Unknown unsupported: a program without `main` whose function `fill` has a parameter of type pointer
//#Safe
// Library mode (no `main`) calls a function with arbitrary arguments; an arbitrary pointer
// would point nowhere, so a function with a pointer parameter is not translated.
void fill(int *a, int n) {
  for (int i = 0; i < n; i++) {
    a[i] = 0;
  }
}
