//#Unsafe
// Written the other way round, the checked invariant comes first and fails after `havoc x`.
procedure main() {
  var x: int;
  while (*)
    invariant x + 1 > 0;
    free invariant x >= 0;
  {
    havoc x;
  }
}
