//#Safe
// Bit-vector literals, extraction, concatenation and arithmetic through builtin functions.
function {:builtin "bvadd"} bvadd32(bv32, bv32) returns (bv32);
function {:builtin "bvult"} bvult8(bv8, bv8) returns (bool);

procedure main()
{
  var x: bv32;
  var lo, hi: bv16;
  x := bvadd32(1bv32, 2bv32);
  assert x == 3bv32;
  lo := x[16:0];
  hi := x[32:16];
  assert hi ++ lo == x;
  assert bvult8(x[8:0], 4bv8);
}
