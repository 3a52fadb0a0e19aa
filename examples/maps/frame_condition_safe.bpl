//#Safe
// A frame condition: the loop writes only cells whose mark is set, so a cell whose mark is clear
// keeps its value. The proof is the loop invariant `m[k] || a[k] == a0[k]` over the index `k`, which
// the loop never writes and only the code after it reads.
procedure main() returns ()
{
  var a, a0 : [int]int;
  var m : [int]bool;
  var i, k : int;
  a0 := a;
  while (*) {
    havoc i;
    assume m[i];
    a[i] := a[i] + 1;
  }
  assume !m[k];
  assert a[k] == a0[k];
}
