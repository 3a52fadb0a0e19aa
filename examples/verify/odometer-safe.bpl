//#Safe
// The odometer's display wraps around after 99,999 kilometres: whatever it shows is a five-digit
// number. The one path every execution follows (300,000 increments) is run, and no assertion
// fails on it. (The CEGAR loop would prove it too, with `0 <= digits && digits < 100000`.)
procedure main()
{
  var km, digits: int;
  km := 0;
  digits := 0;
  while (km < 300000) {
    km := km + 1;
    digits := km % 100000;
    assert 0 <= digits && digits < 100000;
  }
}
