//#Unsafe
// strcpy writes the terminating null past the end of the buffer.
#include <string.h>

int main() {
  char buf[5];
  strcpy(buf, "hello");
  return 0;
}
