//#Unsafe
// where clauses are dropped (Ultimate): the global is arbitrary.
var g: int where g > 0;
procedure main() { assert g > 0; }
