//#Unsafe
procedure main() { assert 0.1 + 0.2 != 0.3; }
