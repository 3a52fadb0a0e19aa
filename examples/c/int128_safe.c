//#Safe
// GCC's 128-bit integers (`__int128`, `unsigned __int128`): ranges, wrap-around, conversions.
extern void reach_error(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
int main(void) {
  unsigned __int128 x = -1;
  __int128 y = x;            /* implementation-defined: wraps to -1 */
  unsigned long long a = __VERIFIER_nondet_ulonglong();
  unsigned __int128 p = (unsigned __int128) a * a;
  if (sizeof(__int128) != 16) reach_error();
  if (y != -1) reach_error();
  if (x + 1 != 0) reach_error();
  if (p > x) reach_error();
  if ((unsigned long long) x != 18446744073709551615ULL) reach_error();
  if (a == 3 && p != 9) reach_error();
  return 0;
}
