//#Safe
// Procedures with bodies are inlined; their postconditions are checked at their exit.
var counter: int;

procedure step(k: int)
  modifies counter;
  ensures counter == old(counter) + k;
{
  counter := counter + k;
}

procedure main()
  modifies counter;
{
  counter := 0;
  call step(2);
  call step(3);
  assert counter == 5;
}
