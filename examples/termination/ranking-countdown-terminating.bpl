//#Terminating
// A countdown by an input step: the loop condition depends on the unconstrained inputs, so the
// executor cannot decide it; the ranking prover finds the ranking function x with the supporting
// invariant y >= 1 (from the assume before the loop).
procedure main(n: int, y: int)
{
    var x: int;
    assume y >= 1;
    x := n;
    while (x >= 0) {
        x := x - y;
    }
}
