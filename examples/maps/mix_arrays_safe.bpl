//#Safe
// Ultimate's builtin mix arrays: every cell of `mix(a, b, n)` is the cell of `a` or the cell of `b`
// at the same index. Which of the two a true `n[x]` selects is not fixed, so the function is
// over-approximated by exactly that property.
function {:builtin "const-Array-Int-Int"} K(v: int) returns ([int]int);
function {:builtin "mix-Array-Int-Int"} mix(a: [int]int, b: [int]int, n: [int]bool) returns ([int]int);

procedure main()
{
  var a, b, m: [int]int;
  var n: [int]bool;
  var i: int;
  a := K(3);
  b := K(5);
  a[7] := 4;
  m := mix(a, b, n);
  assert m[i] == 3 || m[i] == 4 || m[i] == 5;
}
