//#Unknown unsupported: conversion of a pointer to an integer
//#Safe
// Pointers are {base, offset} pairs: their integer value is not modelled, so a cast to an integer
// is not translated.
extern void reach_error(void);

int main(void) {
  int x = 1;
  long a = (long)&x;
  if (a == 0) reach_error();
  return 0;
}
