//#Unsafe
// Two string literals with the same characters "need not designate distinct objects" (C11
// 6.4.5p7), and gcc makes them one: a program that compares their addresses is verified for
// either choice, so reaching the error when they are one object is a violation.
extern void reach_error(void);

int main() {
  const char *greeting = "hello";
  const char *again = "hello";
  if (greeting == again) {
    reach_error();
  }
  return 0;
}
