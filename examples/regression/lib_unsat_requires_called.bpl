//#Unsafe
// f has unsatisfiable requires but main calls it: the call-site requires check fails.
procedure f(x: int) requires x > 0 && x < 0; { assert false; }
procedure main() { call f(1); }
