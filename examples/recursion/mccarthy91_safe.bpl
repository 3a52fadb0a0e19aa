//#Safe
// McCarthy's 91 function: for every input up to 101 the result is 91, above it x - 10. The proof
// needs a summary of the recursive procedure (a predicate at its exit over its parameter and
// result), combined with the caller's state at each return.
procedure mc91(x: int) returns (r: int)
{
  var t: int;
  if (x > 100) {
    r := x - 10;
  } else {
    call t := mc91(x + 11);
    call r := mc91(t);
  }
}

procedure ULTIMATE.start()
{
  var a, b: int;
  call b := mc91(a);
  assert a <= 101 ==> b == 91;
  assert a > 101 ==> b == a - 10;
}
