//#Unknown unsupported: `_Atomic` object in a program with threads
//#Safe
// An `_Atomic` object reached through a pointer: its increment is one atomic step in C11, which
// the translation makes atomic only for `_Atomic` globals named directly, so this program is not
// translated (an UNKNOWN, never the false alarm a split increment would give).
#include <pthread.h>
extern void abort(void);
void reach_error(void) {}
void *worker(void *arg) {
  _Atomic int *p = arg;
  (*p)++;
  return 0;
}
int main(void) {
  _Atomic int cnt = 0;
  pthread_t a, b;
  pthread_create(&a, 0, worker, &cnt);
  pthread_create(&b, 0, worker, &cnt);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (cnt != 2) {
    reach_error();
    abort();
  }
  return 0;
}
