//#Unsafe
// The violation needs six forked threads, more than the largest number of thread instances per
// fork statement (4). Beyond the bound the engine still looks for real errors: a fork with every
// instance in use may start a thread that never runs ("a further thread, which never runs"),
// which is an execution of the program. Here none of the six threads has run when main checks.
var started, finished : int;

procedure ULTIMATE.start()
modifies started, finished;
{
  var k : int;
  started := 0;
  finished := 0;
  k := 0;
  while (k < 6) {
    fork k worker();
    started := started + 1;
    k := k + 1;
  }
  assert started == 6 ==> finished > 0;
}

procedure worker()
modifies finished;
{
  atomic { finished := finished + 1; }
}
