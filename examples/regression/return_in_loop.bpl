//#Unsafe
// return inside loop skips the code after the loop but ensures is still checked: ensures r == 10 fails when returning at i == 5 with r := 5.
procedure f() returns (r: int) ensures r == 10; { var i: int; i := 0; while (i < 10) { if (i == 5) { r := i; return; } i := i + 1; } r := 10; }
