//#Nonterminating
// Nonterminating for y = 0 and x > 0: the loop then maps the state to itself (a fixpoint lasso).
// Fixed inputs 1, -1, 100, -100 do not show it (x grows, or the loop is not entered).
procedure main()
{
    var x, y: int;
    havoc x, y;
    while (x > 0) {
        x := x + y;
    }
}
