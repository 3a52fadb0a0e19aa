//#Unsafe
// invariant x == 0 on entry ok; body sets x := 1 then loops: maintenance fails.
procedure ULTIMATE.start() { var x: int; x := 0; while (*) invariant x == 0; { x := 1; } }
