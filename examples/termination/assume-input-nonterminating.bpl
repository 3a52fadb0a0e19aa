//#Nonterminating
// Nontermination for some inputs only: with the input unconstrained the loop condition is unknown,
// so the executor retries with inputs fixed to 0, where the loop repeats its state.
procedure main()
{
    var x: int;
    havoc x;
    while (x >= 0) {
        x := x * x;
    }
}
