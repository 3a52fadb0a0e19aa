//#Safe
// Initialisers of large arrays (C11 6.7.9p21: the elements not given are zero, as for static
// storage). The front end zeroes such an aggregate at once — a variable's map `~const~int(0)` (of
// two dimensions for a matrix, `~const~int~2(~const~int(0))`), an object in memory its row — and
// then writes only the cells the initialiser gives, whatever the size: a local of 10,000 ints whose
// address is taken, a matrix and an array of structs with designators.
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);

struct entry { int key; int *link; int hist[3]; };
struct entry table[300] = { [5] = { 1, 0, { 7, 8 } }, [299].hist[2] = 4 };

int main() {
  int a[10000] = { [9999] = 1 };
  int *p = a;
  long long m[40][3000] = { { 1 }, { 2, 3 } };
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 9999 && p[k] != 0) __VERIFIER_error();
  if (p[9999] != 1) __VERIFIER_error();
  if (m[1][1] != 3 || m[0][0] != 1 || m[0][1] != 0) __VERIFIER_error();
  if (k >= 2 && k < 3000 && m[1][k] != 0) __VERIFIER_error();
  if (table[5].hist[1] != 8 || table[299].hist[2] != 4 || table[5].link != 0) __VERIFIER_error();
  if (k >= 0 && k < 300 && k != 5 && k != 299 && (table[k].key != 0 || table[k].hist[0] != 0))
    __VERIFIER_error();
  return 0;
}
