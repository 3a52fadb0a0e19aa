//#Unsafe
// real used: must be UNKNOWN (unsupported) or UNSAFE; never SAFE.
var r: real;
procedure ULTIMATE.start() modifies r; { r := 1.5; assert r == 2.5; }
