//#Safe
// mod with nonzero divisor is >= 0 and < |d|.
procedure ULTIMATE.start() { var x, y, m: int; havoc x; havoc y; assume y != 0; m := x % y; assert m >= 0 && (m < y || m < -y); }
