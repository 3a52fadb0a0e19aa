//#Terminating
// Euclid's algorithm by remainders: b := a mod b. A remainder by a divisor that is not a constant
// is no linear term; the ranking synthesis abstracts it, with its range by the divisor's sign
// (0 <= a mod b <= b - 1 for b > 0, 0 <= a mod b <= -b - 1 for b < 0; b = 0 leaves it open),
// so b ranks the loop.
procedure main()
{
  var a, b, t: int;
  assume a >= 0 && b >= 0;
  while (b != 0) {
    t := a mod b;
    a := b;
    b := t;
  }
}
