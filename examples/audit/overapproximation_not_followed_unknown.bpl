//#Unknown the error trace depends on an over-approximation (part)
//#Safe
// An execution that applies an `{:overapproximation}` function is not followed as an execution of
// the program: the function stands for an operation the verifier does not model, so `assert false`
// after it (how a front end says "not translated beyond here") must answer UNKNOWN, never UNSAFE,
// however the verdict is found (here the first witness execution, with every input 0, reaches it).
function {:overapproximation "part"} part(x: int) returns (int);

procedure main(n: int)
{
  var t: int;
  if (n != 7) {
    t := part(n);
    assert false;
  }
}
