//#Unsafe
function {:const_array} K(v: int) returns ([int]int);
procedure main() { var a: [int]int; var x, y: int; a := K(x); assert a != K(y); }
