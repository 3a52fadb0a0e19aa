//#Unsafe
// `char word[] = "abcd"` has five elements, the last one the terminating zero: counting the
// characters before it gives 4, and a program that expects 5 fails.
void reach_error(void);

int main() {
  char word[] = "abcd";
  int n = 0;
  while (n < 5 && word[n] != 0) {
    n++;
  }
  if (n != 5) reach_error();
  return 0;
}
