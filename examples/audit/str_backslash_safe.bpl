//#Safe
// In Ultimate's lexer `\t \n \r \"` are the only escapes of a string; any other backslash stands for
// itself, so `\q` and `\d` are accepted (strings appear only in attributes).
procedure {:msg "a \q escape, a \"quote\", a \d digit"} main()
{
  var x: int;
  x := 1;
  assert x == 1;
}
