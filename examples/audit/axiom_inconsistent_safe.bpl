//#Safe
const c: int;
axiom c > 0;
axiom c < 0;

procedure main() {
  assert false;
}
