//#Unsafe
// Character constants with a prefix have the character's code point in their own type:
// `u'…'` is a `char16_t` (unsigned short, promoted to int), `U'…'` a `char32_t` (unsigned int),
// `L'…'` a `wchar_t` (int). Universal character names (`\u00F6`) name code points. gcc agrees
// that every comparison below holds, so the error is reachable.
extern void reach_error(void);

int main(void) {
  if (u'\u00F6' == 246 && U'\U0010FFFF' == 1114111u && L'\xF6' == 246 && (U'a' - 98) > 0 &&
      (u'a' - 98) < 0 && L'\xFFFFFFFF' == -1) {
    reach_error();
  }
  return 0;
}
