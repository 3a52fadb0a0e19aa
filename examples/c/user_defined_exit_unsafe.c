//#Unsafe
// A program that defines its own `exit` (undefined behaviour in ISO C, 7.1.3) gets that function
// linked: the call returns, and the error is reached.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "user_defined_exit_unsafe.c", 6, "reach_error"); }

int exited = 0;
void exit(int code) { exited = code; }

int main() {
  exit(3);
  if (exited == 3) {
    reach_error();
  }
  return 0;
}
