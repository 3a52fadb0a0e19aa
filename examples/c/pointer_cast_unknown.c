//#Unknown unsupported: conversion between pointers to different types
//#Unsafe
// Memory is one map per data kind, each cell read at the type it was written with: a `char *` into
// an `int` object would read one byte of a cell that holds the whole int, so it is not translated.
extern void reach_error(void);

int main(void) {
  int x = 0;
  char *p = (char *)&x;
  p[1] = 1;
  if (x != 0) reach_error();
  return 0;
}
