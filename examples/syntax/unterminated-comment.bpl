//#SyntaxError
var x: int;
/* this comment never ends
procedure main() {}
