//#Terminating
// A call inside a loop: the callee's frame is pushed and popped on every iteration.
var calls: int;

procedure inc(x: int) returns (y: int)
modifies calls;
{
    calls := calls + 1;
    y := x + 1;
}

procedure ULTIMATE.start()
modifies calls;
{
    var i: int;
    calls := 0;
    i := 0;
    while (i < 5) {
        call i := inc(i);
    }
}
