//#Unsafe
type Ref; type Field;
const unique f, g: Field;
procedure main() { var H: [Ref,Field]int; var x, y: Ref;
  H[x,f] := 1; H[y,g] := 2; H[y,f] := 3; assert H[x,f] == 1; }
