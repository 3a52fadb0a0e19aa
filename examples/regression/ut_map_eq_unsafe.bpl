//#Unsafe
type T; const unique a, b: T;
procedure main() { var m: [T]bool; m[a] := true; m[b] := false; assert (forall_absent()); }
function forall_absent(): bool;
