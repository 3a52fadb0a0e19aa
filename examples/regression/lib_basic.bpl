//#Unsafe
// library mode: main never calls f with x <= 0, but f is itself an entry from any state with its requires (none).
procedure f(x: int) { assert x > 0; }
procedure main() { call f(1); }
