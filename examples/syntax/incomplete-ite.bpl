//#SyntaxError
procedure main()
{
  var x: int;
  x := if x > 0 then 1 else 2 + if true then 3;
}
