//#Terminating
// Unsigned arithmetic wraps: `x - 1` is `(x - 1) mod 2^32`, so the decrement is a quotient q and a
// remainder r with x - 1 = 2^32·q + r, 0 <= r < 2^32, and x' = r. Over the reals the guard x >= 1
// allows q = -1/2, where x would grow; over the integers q >= 0, and x decreases. The ranking
// synthesis adds such integer bounds (cuts) to its linear relaxation. The second loop halves y;
// the third moves a and b towards each other, each wrapping on paper only; the last is Euclid's
// subtraction, where the solver shows that `m - n` under `m > n` is non-negative and below 2^32
// (interval bounds of m and n alone do not bound the difference).
extern unsigned int __VERIFIER_nondet_uint(void);

int main() {
  unsigned int x = __VERIFIER_nondet_uint();
  while (x > 0) {
    x = x - 1;
  }
  unsigned int y = __VERIFIER_nondet_uint();
  while (y >= 2) {
    y = y / 2;
  }
  unsigned int a = __VERIFIER_nondet_uint();
  unsigned int b = __VERIFIER_nondet_uint();
  while (a > b) {
    a = a - 1;
    b = b + 1;
  }
  unsigned int m = __VERIFIER_nondet_uint();
  unsigned int n = __VERIFIER_nondet_uint();
  if (m == 0 || n == 0) {
    return 0;
  }
  while (m != n) {
    if (m > n) {
      m = m - n;
    } else {
      n = n - m;
    }
  }
  return 0;
}
