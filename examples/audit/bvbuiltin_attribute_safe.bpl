//#Safe
// Standard Boogie names bit-vector operations with `{:bvbuiltin "…"}` (Ultimate's dialect: `{:builtin}`):
// both name the SMT function, so these are not uninterpreted functions.
function {:bvbuiltin "bvand"} AND32(bv32, bv32) returns (bv32);
function {:bvbuiltin "bvule"} ULE32(bv32, bv32) returns (bool);

procedure main() {
  var x: bv32;
  havoc x;
  assert ULE32(AND32(x, 255bv32), 255bv32);
  assert x[8:0] == AND32(x, 255bv32)[8:0];
}
