//#Safe
// old(g) where g is a local shadowing the global: old of a local is the local's current value.
var g: int;
procedure p() { var g: int; g := 5; assert old(g) == 5; }
procedure ULTIMATE.start() modifies g; { g := 1; call p(); }
