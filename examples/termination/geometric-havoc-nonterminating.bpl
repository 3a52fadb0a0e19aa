//#Nonterminating
// A nondeterministic update: the new x is any value at least twice the old one. Choosing exactly
// twice the old value from x = 2 runs forever (a geometric argument with eigenvalue 2).
procedure main()
{
  var x, old_x: int;
  while (x > 1) {
    old_x := x;
    havoc x;
    assume x >= 2 * old_x;
  }
}
