//#Terminating
// A three-phase loop (Leike & Heizmann, "Ranking templates for linear loops"): z decreases, then y,
// then x. There is no lexicographic or nested linear ranking function; a multiphase one exists.
procedure main() returns (x: int, y: int, z: int)
{
  while (x >= 0) {
    if (*) {
      x := x + y;
    } else {
      x := x + z;
    }
    y := y + z;
    z := z - 1;
  }
}
