//#Safe
// Two threads sum the same array and log every partial sum to a shared buffer. The log never
// influences a branch or the assertion, so cone-of-influence slicing removes `out` and `pos`:
// the logging steps become skips that commute with everything, and the proof is the one of the
// two summing loops alone (`--stats` shows "slicing: … variables … removed").
var A : [int]int;
var out : [int]int;
var pos, n : int;

procedure log(v : int)
modifies out, pos;
{
  atomic {
    out[pos] := v;
    pos := pos + 1;
  }
}

procedure sum() returns (s : int)
modifies out, pos;
{
  var i : int;
  s := 0;
  i := 0;
  while (i < n) {
    s := s + A[i];
    call log(s);
    i := i + 1;
  }
}

procedure ULTIMATE.start()
modifies out, pos;
{
  var x, y : int;
  pos := 0;
  fork 1 sum();
  fork 2 sum();
  join 1 assign x;
  join 2 assign y;
  assert x == y;
}
