//#Nonterminating
// The counter is reset before it reaches the bound: the state at the loop head repeats.
procedure main()
{
    var x: int;
    x := 0;
    while (x < 10) {
        x := x + 1;
        if (x == 5) {
            x := 0;
        }
    }
}
