//#Safe
// Steps of 3 from 0 can only stop at 501 after passing 500: `x mod 3 == 0 && x <= 501` is inductive.
procedure main()
{
  var x: int;
  x := 0;
  while (x < 500) {
    x := x + 3;
  }
  assert x == 501;
}
