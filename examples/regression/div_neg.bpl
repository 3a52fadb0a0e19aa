//#Safe
// SMT div/mod (Euclidean): -7 div 2 == -4, -7 mod 2 == 1; 7 div -2 == -3, 7 mod -2 == 1; -7 div -2 == 4, -7 mod -2 == 1.
procedure ULTIMATE.start() { var a, b, c, d, e, f: int;
  a := -7 / 2; b := -7 % 2; c := 7 / -2; d := 7 % -2; e := (-7) / (-2); f := (-7) % (-2);
  assert a == -4 && b == 1 && c == -3 && d == 1 && e == 4 && f == 1; }
