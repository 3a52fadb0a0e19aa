//#Safe
// `{:smtdefined "…"}` functions are SMT-LIB terms over their parameters (as Ultimate's C translation
// writes its constant arrays).
function { :smtdefined "((as const (Array Int Int)) in)" } ~const~Array~Int~Int(in : int) returns (out : [int] int);
function { :smtdefined "(+ x (* 2 y))" } lin(x : int, y : int) returns (int);
function { :smtdefined "((_ divisible 2) a)" } even(a : int) returns (bool);

procedure main()
{
  var a : [int] int;
  var i : int;
  a := ~const~Array~Int~Int(0);
  a[3] := 7;
  assert i != 3 ==> a[i] == 0;
  assert lin(a[3], a[i]) >= 7;
  assert even(lin(0, i));
}
