//#Safe
// `_Atomic` objects in a program without threads: the qualifier changes no value. A prototype
// whose parameter points to an atomic type declares no object (as `<stdatomic.h>`'s do).
extern void abort(void);
void reach_error(void) {}
void clear_flag(volatile _Atomic int *flag);
_Atomic int cnt = 0;
int main(void) {
  _Atomic long total = 5;
  cnt++;
  cnt += 2;
  total -= cnt;
  if (cnt != 3 || total != 2) {
    reach_error();
    abort();
  }
  return 0;
}
