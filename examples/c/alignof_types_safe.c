//#Safe
// `_Alignof` / `__alignof__`: the alignment of a type as a member (ILP32 here).
struct pair { char c; int i; };
struct wide { short s; char *p; };

int main(void) {
  if (_Alignof(char) != 1 || _Alignof(short) != 2 || __alignof__(int) != 4) {
    //@ assert \false;
  }
  if (_Alignof(struct pair) != 4 || _Alignof(struct wide) != 4 || _Alignof(float[3]) != 4) {
    //@ assert \false;
  }
  char buffer[_Alignof(struct pair) * 2];
  //@ assert sizeof buffer == 8;
  return 0;
}
