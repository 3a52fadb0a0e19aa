//#Unsafe
// A lemma call gives the contract only where the lemma's precondition holds: for a negative `n`
// nothing is known of `f(n)`. The fixed argument `a` is not a wildcard: `f(a + 1, y)` is unknown.
function f(x: int): int;
function g(x: int, y: int): int;

procedure lemma(x: int);
  requires x >= 0;
  ensures f(x) >= x;

procedure lemma2(x: int, y: int);
  requires y > 0;
  ensures g(x, y) > x;

procedure main(n: int, a: int)
{
  call forall lemma(*);
  call forall lemma2(a, *);
  assert g(a, 5) > a;
  if (*) {
    assert g(a + 1, 5) > a + 1;
  } else {
    assert f(n) >= n;
  }
}
