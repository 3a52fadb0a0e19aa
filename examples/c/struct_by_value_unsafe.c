//#Unsafe
// The callee changes its copy only.
struct pt { int x; int y; };
void bump(struct pt p) { p.x = p.x + 1; }
int main() {
  struct pt q = { 1, 2 };
  bump(q);
  //@ assert q.x == 2;
  return 0;
}
