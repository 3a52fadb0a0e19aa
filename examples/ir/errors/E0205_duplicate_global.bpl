//#SyntaxError
// E0205: two globals with the same name.
var g: int;
const g: bool;
procedure main()
{
}
