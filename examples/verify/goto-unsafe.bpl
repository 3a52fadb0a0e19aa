//#Unsafe
// Unstructured control flow: the loop written with goto can exit with x = 3.
procedure main()
{
  var x: int;
  x := 0;
  L:
    x := x + 1;
    goto L, Done;
  Done:
    assert x != 3;
}
