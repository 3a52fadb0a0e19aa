//#Unsafe
function {:bvbuiltin "bvadd"} ADD8(bv8, bv8) returns (bv8);
function {:bvbuiltin "bvugt"} UGT8(bv8, bv8) returns (bool);

procedure main() {
  var x: bv8;
  havoc x;
  // fails for x = 255bv8 only: the sum wraps around
  assert UGT8(ADD8(x, 1bv8), x);
}
