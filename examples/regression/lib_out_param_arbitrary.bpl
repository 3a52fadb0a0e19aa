//#Unsafe
// library: out param r is arbitrary at entry; f returns without setting it; ensures r == 0 fails.
procedure f(b: bool) returns (r: int) ensures r == 0; { if (b) { r := 0; } }
