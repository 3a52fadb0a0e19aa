//#Safe
// Three pairwise distinct booleans are impossible: vacuously safe.
const unique t1: bool; const unique t2: bool; const unique t3: bool;
procedure main() { assert false; }
