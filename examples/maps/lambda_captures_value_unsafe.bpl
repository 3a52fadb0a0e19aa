//#Unsafe
// A lambda expression is a map value: it captures `n` when it is evaluated, so the later
// assignment to `n` does not change `m`, and the assertion fails (m[0] == 1, n == 2). The lambda
// is hoisted to a local defined by an assumption before its statement (docs/IR.md §3).
procedure main() {
  var n: int;
  var m: [int]int;
  n := 1;
  m := (lambda i: int :: i + n);
  n := 2;
  assert m[0] == n;
}
