//#Safe
// A string literal used as a pointer is an array of char with static storage, ending in a zero.
extern void reach_error(void);

int second(const char *s) { return s[1]; }

int main(void) {
  const char *s = "ab\x41";
  if (s[2] != 'A' || s[3] != 0) reach_error();
  if (second("xyz") != 'y') reach_error();
  return 0;
}
