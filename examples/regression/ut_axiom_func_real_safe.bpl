//#Safe
function half(x: real): real; axiom half(1.0) == 0.5;
procedure main() { assert half(1.0) + half(1.0) == 1.0; }
