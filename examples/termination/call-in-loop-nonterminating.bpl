//#Nonterminating
// The callee returns its argument unchanged: after one iteration the whole state (location, call
// stack, variables) repeats.
procedure id(x: int) returns (y: int)
{
    y := x;
}

procedure ULTIMATE.start()
{
    var i: int;
    i := 0;
    while (i < 5) {
        call i := id(i);
    }
}
