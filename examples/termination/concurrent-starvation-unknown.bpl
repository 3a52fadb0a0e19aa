//#Unknown unsupported by the executor: fork/join; no ranking proof: unsupported: termination of concurrent programs (fork); Büchi Automizer: a nonterminating lasso on which a thread that may move never does (unfair)
//#Terminating
// The forked thread spins until the main thread sets the flag: under a fair scheduler the program
// terminates. Only a scheduler that never runs the main thread again keeps it spinning: such a
// lasso is not fair (a thread that could always move never does), and Lapidary reports no
// nontermination on it; the spin loop has no ranking function either, so the answer is UNKNOWN.
var flag: bool;

procedure ULTIMATE.start()
modifies flag;
{
  flag := false;
  fork 1 spin();
  flag := true;
  join 1;
}

procedure spin()
{
  while (!flag) { }
}
