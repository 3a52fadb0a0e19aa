//#Unsafe
// Ackermann-like mutual recursion through a global counter: calls counts every activation of
// ack and step; the claim that ack(1, 1) makes fewer than 5 of them is false.
var calls: int;

procedure ack(m: int, n: int) returns (r: int)
modifies calls;
{
  calls := calls + 1;
  if (m == 0) {
    r := n + 1;
  } else {
    call r := step(m, n);
  }
}

procedure step(m: int, n: int) returns (r: int)
modifies calls;
{
  var t: int;
  calls := calls + 1;
  if (n == 0) {
    call r := ack(m - 1, 1);
  } else {
    call t := ack(m, n - 1);
    call r := ack(m - 1, t);
  }
}

procedure ULTIMATE.start()
modifies calls;
{
  var r: int;
  calls := 0;
  call r := ack(1, 1);
  assert r == 3;
  assert calls < 5;
}
