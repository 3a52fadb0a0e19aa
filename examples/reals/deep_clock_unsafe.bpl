//#Unsafe
// The violation needs 30 iterations of the loop: the clock advances by at most 1.0 per step, and
// the cost (twice the time) exceeds 60.0 only after 30 steps. The refuted traces of the CEGAR loop
// grow slowly; the deep search (bounded model checking of the unrolled program) finds the trace,
// which is then re-validated edge by edge.
var time, cost: real;

procedure main()
modifies time, cost;
{
  var delay: real;
  time := 0.0;
  cost := 0.0;
  while (time < 30.0)
  {
    havoc delay;
    assume delay >= 0.0 && delay <= 1.0;
    time := time + delay;
    cost := cost + 2.0 * delay;
    assert cost <= 60.0;
  }
}
