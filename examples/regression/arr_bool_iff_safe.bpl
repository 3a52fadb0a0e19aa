//#Safe
procedure main() { var f, g: [int]bool; var i: int; g := f; f[i] := !f[i]; assert f[i] <==> !g[i]; assert f != g; }
