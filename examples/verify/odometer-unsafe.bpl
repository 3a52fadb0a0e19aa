//#Unsafe
// A five-digit odometer counts kilometres; the assertion claims it never shows 99999. Its control
// flow depends on no input, so the program is run: after 99,999 increments (about half a million
// steps, a fraction of a second) the assertion fails. No short error trace exists for the CEGAR
// loop; the counterexample shows the first and last 40 steps of the run.
procedure main()
{
  var km, digits: int;
  km := 0;
  digits := 0;
  while (km < 300000) {
    km := km + 1;
    digits := km % 100000;
    assert digits != 99999;
  }
}
