//#Safe
// unsatisfiable requires: f is vacuously safe; nobody calls it.
procedure f(x: int) requires x > 0 && x < 0; { assert false; }
