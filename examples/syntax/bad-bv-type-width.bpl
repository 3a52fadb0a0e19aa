//#SyntaxError
var x: bv4294967296;
