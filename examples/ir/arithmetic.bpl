//#Safe
// int and real arithmetic: `/` is div on int and real division on real; `%`; `<==`, `!=`,
// if-then-else, quantifiers.
procedure main()
{
  var i: int;
  var r: real;
  i := 7 / 2;
  assert i == 3 && 7 % 2 == 1;
  r := 7.0 / 2.0;
  assert r == 3.5;
  assert i != 4;
  assert (i >= 0 <== i == 3);
  assert (if i > 0 then i else -i) == 3;
  assert (exists k: int :: k * 2 == 6);
}
