//#Unsafe
// invariant x >= 0 checked at entry with x == -1 -> violated (even though the loop doesn't execute).
procedure ULTIMATE.start() { var x: int; x := -1; while (false) invariant x >= 0; { } }
