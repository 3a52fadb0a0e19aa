//#Safe
// Structs passed, returned and assigned by value are copies.
struct pt { int x; int y; int a[2]; };
struct pt mk(int x, int y) {
  struct pt r = { x, y, { x, y } };
  return r;
}
int sum(struct pt p) {
  p.x = p.x + p.y;
  return p.x + p.a[1];
}
struct pt pick(int c, struct pt a, struct pt b) { return c ? a : b; }
int main() {
  struct pt q = mk(3, 4);
  //@ assert q.y == 4 && q.a[0] == 3;
  int s = sum(q);
  //@ assert s == 11 && q.x == 3;
  struct pt *h = &q;
  struct pt c = pick(0, *h, (struct pt){ 1, 2, { 5, 6 } });
  //@ assert c.a[1] == 6;
  struct outer { struct pt in; int k; } o = { c, q.x };
  //@ assert o.in.x == 1 && o.k == 3;
  o.in = mk(8, 9);
  //@ assert o.in.a[1] == 9;
  return 0;
}
