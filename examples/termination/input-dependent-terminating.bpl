//#Terminating
// Terminates for every input, but the loop condition depends on the unconstrained n: the executor
// answers UNKNOWN ("depends on unconstrained values"); the ranking prover finds the ranking function n.
procedure main()
{
    var n: int;
    havoc n;
    while (n > 0) {
        n := n - 1;
    }
}
