//#Safe
// Character arrays initialised by string literals (C11 6.7.9p14): the characters, then the
// terminating zero if there is room, then zeros; an array of unknown size gets the literal's
// length plus one; the literal may be braced; in a two-dimensional array each row takes one.
void reach_error(void);

char greeting[] = "hi";
char names[][4] = {"ab", "cde"};
struct entry { int key; char tag[4]; } first = {1, "xyz"};

int main() {
  char word[] = {"abcd"};
  char padded[8] = "abc";
  char exact[3] = "abc";
  unsigned char high[] = "\xff";
  if (sizeof(greeting) != 3 || greeting[2] != 0) reach_error();
  if (names[1][2] != 'e' || names[0][2] != 0 || sizeof(names) != 8) reach_error();
  if (first.tag[2] != 'z' || first.tag[3] != 0) reach_error();
  if (word[1] != 'b' || sizeof(word) != 5) reach_error();
  if (padded[3] != 0 || padded[7] != 0) reach_error();
  if (exact[2] != 'c' || sizeof(exact) != 3) reach_error();
  if (high[0] != 255) reach_error();
  return 0;
}
