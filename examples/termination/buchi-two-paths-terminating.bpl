//#Terminating
// Two paths through the loop need different ranking functions: `x` while `x > 0`, `-x` while
// `x < 0`. No linear (lexicographic, nested, multiphase) function ranks the loop as a whole, but
// each lasso has one: the Büchi loop ranks the lasso of each path, generalises each ranking
// function into a rank certificate, and proves the lassos that switch paths infeasible
// (tests/cli.rs runs it alone). By default the loop is ranked first as a whole, by the piecewise
// function (if x >= 1 then x else 0) and then -x.
procedure main()
{
    var x: int;
    havoc x;
    while (x != 0) {
        if (x > 0) {
            x := x - 1;
        } else {
            x := x + 1;
        }
    }
}
