//#Unsafe
// No entry procedure: every procedure with a body is checked from any state satisfying its requires.
procedure abs(x: int) returns (y: int)
  requires x > -100;
  ensures y >= 0;
{
  if (x < 0) {
    y := 0 - x;
  } else {
    y := x - 1;
  }
}
