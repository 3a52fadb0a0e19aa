//#Safe
// `where` clauses are assumed as Boogie assumes them: at the start of every implementation (globals,
// parameters, returns, locals), after `havoc`, and after a call (its targets and the callee's
// modified globals). Every assertion below holds only thanks to one of them.
var g: int where g >= 0;

procedure ULTIMATE.start(n: int where n > 2) returns (r: int where r != 7)
modifies g;
{
  var x, y: int where x < y;
  assert g >= 0 && n > 2 && r != 7;
  assert x < y;
  havoc x;
  assert x < y;
  call r := Unknown();
  assert r != 7;
  assert g >= 0;
}

procedure Unknown() returns (v: int);
modifies g;
