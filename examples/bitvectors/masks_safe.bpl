//#Safe
// Bit masks and shifts on 32-bit words, with a loop: the low byte of `x` stays 0 while it is
// shifted left by 8 and or-ed with a mask whose low byte is 0.
function {:builtin "bvand"} and32(bv32, bv32) returns (bv32);
function {:builtin "bvor"} or32(bv32, bv32) returns (bv32);
function {:builtin "bvshl"} shl32(bv32, bv32) returns (bv32);
function {:builtin "zero_extend"} {:indices 24} widen(bv8) returns (bv32);

procedure main()
{
  var x: bv32;
  var b: bv8;
  x := 0bv32;
  havoc b;
  while (*) {
    x := or32(shl32(x, 8bv32), shl32(widen(b), 8bv32));
  }
  assert and32(x, 255bv32) == 0bv32;
  assert x[8:0] == 0bv8;
}
