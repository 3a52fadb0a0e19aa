//#SyntaxError
// E0409: `call forall` of a procedure with a modifies clause.
var g: int;
procedure lemma(x: int);
  modifies g;
procedure main()
  modifies g;
{
  call forall lemma(*);
}
