//#Unsafe
// inline function max; max(2,5) == 5, assert == 2 fails.
function {:inline true} max(a: int, b: int): int { if a > b then a else b }
procedure ULTIMATE.start() { var m: int; m := max(2, 5); assert m == 2; }
