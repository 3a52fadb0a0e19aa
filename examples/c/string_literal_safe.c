//#Safe
// A string literal used as a pointer is an array of char with static storage, ending in a zero.
extern void reach_error(void);

int length(const char *s) {
  int n = 0;
  while (s[n] != 0) {
    n++;
  }
  return n;
}

int main(void) {
  const char *s = "ab\x41";
  if (s[2] != 'A' || s[3] != 0) reach_error();
  if (length("xyz") != 3) reach_error();
  return 0;
}
