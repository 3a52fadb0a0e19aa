//#Safe
function {:const_array} K(v: int) returns ([int]int);
procedure main() { var a: [int]int; var x, y: int; a := K(x); assume a == K(y); assert x == y; }
