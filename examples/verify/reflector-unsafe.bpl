//#Unsafe
// A nondeterministic loop (`while (*)`): after any number of rounds the program may leave it. Each
// round mirrors y around x and flips x's sign, so every other round y grows by 10; the assertion
// after the loop claims y stays below 2000. The executor follows the loop and, at each round,
// probes the exit: after 401 rounds (y = 2003) the exit fails the assertion, a concrete execution
// of about 1,200 steps. The CEGAR loop would have to unroll those rounds a refinement at a time.
procedure main()
{
  var x, y: int;
  x := 5;
  y := 2;
  while (*) {
    y := -y + x;
    x := -x;
  }
  assert y < 2000;
}
