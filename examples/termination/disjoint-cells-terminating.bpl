//#Terminating
// The stem's `i != j` is the supporting invariant that makes `a[i]` a ranking function: the loop
// adds to the cell at `j` and decreases the one at `i`, which are different cells only because
// of it (with `i == j` the loop runs forever).
var a: [int]int;

procedure main()
modifies a;
{
  var i, j: int;
  assume i != j;
  while (a[i] > 0) {
    a[j] := a[j] + 2;
    a[i] := a[i] - 1;
  }
}
