//#SyntaxError
// E0314: `{:concrete}` names an operation the engine does not evaluate.
function {:overapproximation "bitwiseNand"} {:concrete "nand"} nand(x: int, y: int) returns (int);
procedure main()
{
}
