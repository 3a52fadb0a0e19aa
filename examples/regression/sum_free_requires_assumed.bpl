//#Safe
// Ultimate: free requires assumed at the call (even for bodiless). call P(y) with free requires x > 0 -> y > 0 after.
// (doc IR.md: "free requires are assumed as well ... in the summary edge")
procedure P(x: int); free requires x > 0;
procedure ULTIMATE.start() { var y: int; havoc y; call P(y); assert y > 0; }
