//#Unknown unsupported: alignof of long long on i386
//#Safe
// On i386, `_Alignof(long long)` is 4 (C11: the alignment as a member) but `__alignof__(long long)` is 8
// (gcc: the preferred alignment), and the parser reads both into one node: not translated.
int main(void) {
  //@ assert _Alignof(long long) == 4;
  return 0;
}
