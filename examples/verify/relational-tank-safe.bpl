//#Safe
// The tank fills three units per step: `level == 3 * time && time <= 100` is inductive.
procedure main()
{
  var time, level: int;
  time := 0;
  level := 0;
  while (time < 100) {
    time := time + 1;
    level := level + 3;
  }
  assert level <= 300;
}
