//#Unsafe
// a and b agree at i only.
procedure main() { var a, b: [int]int; var i: int; assume a[i] == b[i]; assert a == b; }
