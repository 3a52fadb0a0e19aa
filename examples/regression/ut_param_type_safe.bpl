//#Safe
type Box a;
const unique a: Box int; const unique b: Box int; const unique c: Box bool;
procedure main() { assert a != b; }
