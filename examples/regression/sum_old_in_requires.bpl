//#Unsafe
// old() in requires means current value (Ultimate lenient). P requires old(g) > 0; g := 0 then call -> violated.
var g: int;
procedure P(); requires old(g) > 0;
procedure ULTIMATE.start() modifies g; { g := 0; call P(); }
