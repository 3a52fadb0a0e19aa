//#Safe
// A counting loop: the loop invariant x <= n is found from the refuted traces.
procedure main()
{
  var x, n: int;
  assume n >= 0;
  x := 0;
  while (x < n) {
    x := x + 1;
  }
  assert x == n;
}
