//#Unsafe
procedure main() { assert 0.000000000000000000001 == 0.0; }
