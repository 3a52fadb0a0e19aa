//#Safe
// return inside loop: ensures r >= 5 holds on both paths.
procedure f() returns (r: int) ensures r >= 5; { var i: int; i := 0; while (i < 10) { if (i == 5) { r := i; return; } i := i + 1; } r := 10; }
