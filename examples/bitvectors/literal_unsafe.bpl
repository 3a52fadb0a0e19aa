//#Unsafe
// A bit-vector literal is its value modulo 2^8: 255bv8 is not 254bv8.
procedure ULTIMATE.start() { var x: bv8; x := 255bv8; assert x == 254bv8; }
