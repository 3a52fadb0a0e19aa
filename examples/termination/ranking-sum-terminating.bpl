//#Terminating
// Either variable may decrease: neither x nor y alone is a ranking function, their sum x + y is.
procedure main()
{
    var x, y: int;
    havoc x, y;
    while (x + y > 0) {
        if (*) {
            x := x - 1;
        } else {
            y := y - 1;
        }
    }
}
