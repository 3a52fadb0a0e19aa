//#Terminating
// Values of an uninterpreted type: after `last := first` the loop copies `last` into `current`
// once, and then `current == first` ends it. The supporting invariant is the equality
// `last == first`; with it, two iterations in a row are infeasible.
type Node;
procedure main()
{
  var first, last, current: Node;
  last := first;
  while (current != first) {
    current := last;
  }
}
