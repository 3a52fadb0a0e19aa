//#Unknown control flow depends on unconstrained values (in procedure main); no ranking proof: no linear ranking function
//#Terminating
// Terminates (x decreases by at least 1), but the decrease is a product of variables: the linear
// prover reads the update as unconstrained and finds no ranking function, so the answer is UNKNOWN.
procedure main()
{
    var x, y: int;
    havoc x, y;
    while (x > 0) {
        x := x - y * y - 1;
    }
}
