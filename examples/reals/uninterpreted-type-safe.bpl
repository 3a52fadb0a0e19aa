//#Safe
// Values of an uninterpreted type can only be compared; `unique` constants are pairwise distinct.
type Color;
const unique red: Color;
const unique green: Color;
var light: Color;

procedure main()
modifies light;
{
  var prev: Color;
  light := red;
  while (*) {
    prev := light;
    if (light == red) { light := green; } else { light := red; }
    assert light != prev;
  }
  assert light == red || light == green;
}
