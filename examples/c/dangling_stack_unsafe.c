//#Unsafe
// The object of a block-scope variable dies with its block: the pointer to it dangles.
int main(void) {
  int *p;
  {
    int x = 1;
    p = &x;
  }
  return *p;
}
