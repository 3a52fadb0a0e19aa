//#SyntaxError
var then: int;
