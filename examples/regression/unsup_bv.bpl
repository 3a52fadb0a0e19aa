//#Unknown unsupported: bit-vectors
//#Unsafe
// bit-vectors: must not be SAFE.
procedure ULTIMATE.start() { var x: bv8; x := 255bv8; assert x == 254bv8; }
