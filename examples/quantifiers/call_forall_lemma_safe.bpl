//#Safe
// Boogie's lemma call: `call forall lemma(*)` assumes the lemma's contract for every argument,
// `(forall x: int :: x >= 0 ==> f(x) >= x)`; its body is not needed (nor checked here).
function f(x: int): int;

procedure lemma(x: int);
  requires x >= 0;
  ensures f(x) >= x;

procedure main(n: int)
{
  call forall lemma(*);
  assume n >= 3;
  assert f(n) >= 3;
}
