//#Safe
// A definition is an axiom; this one is inconsistent, so every execution is infeasible (Boogie and
// Ultimate answer SAFE vacuously), even though no statement mentions f.
function f(x: int) returns (int) { f(x) + 1 }

procedure main() {
  assert false;
}
