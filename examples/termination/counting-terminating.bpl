//#Terminating
// A counting loop: the one path runs 10 iterations and returns.
procedure main()
{
    var i, sum: int;
    i := 0;
    sum := 0;
    while (i < 10) {
        sum := sum + i;
        i := i + 1;
    }
}
