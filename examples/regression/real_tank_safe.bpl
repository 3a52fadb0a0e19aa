//#Safe
procedure main() { var lvl: real; lvl := 0.0; while (*) { if (lvl <= 10.0) { lvl := lvl + 0.75; } } assert lvl <= 10.75; }
