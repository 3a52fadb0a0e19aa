//#Unsafe
// An 8-bit counter wraps around: after 256 increments it is 0 again, so `c` can be below `n`'s
// bound although the loop only adds. The counterexample shows the values as bit-vector literals.
function {:builtin "bvadd"} add8(bv8, bv8) returns (bv8);
function {:builtin "bvult"} ult8(bv8, bv8) returns (bool);

procedure main()
{
  var c, old_c: bv8;
  c := 250bv8;
  while (*) {
    old_c := c;
    c := add8(c, 3bv8);
    assert !ult8(c, old_c);
  }
}
