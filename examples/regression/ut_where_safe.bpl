//#Safe
// where clauses are assumed at the start of a body, as in Boogie (Ultimate drops them): the global starts positive.
var g: int where g > 0;
procedure main() { assert g > 0; }
