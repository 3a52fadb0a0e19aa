//#Unsafe
// Same as uf_builtin_name_exp: `sin` is uninterpreted, so sin(0.0) == 1.0 is possible.
function sin(x: real): real;
procedure main() { assume sin(0.0) == 1.0; assert false; }
