"""Tests of the BenchExec tool-info module against the `benchexec` package (PyPI).

Run: `python3 contrib/benchexec/test_lapidary.py VERIFY_EXECUTABLE` (exit 0: all passed). Checks
the version, the command line for a task with a property file and a data model, and the parsing of
captured outputs of `verify --svcomp` (also a real run of the executable on a C file).
"""

import os
import subprocess
import sys
import tempfile

import benchexec.result as result
from benchexec.tools.template import BaseTool2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lapidary  # noqa: E402

EXE = os.path.abspath(sys.argv[1])
tool = lapidary.Tool()
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def run_of(lines, exit_code=0, termination_reason=None):
    from benchexec.util import ProcessExitCode

    return BaseTool2.Run(
        ["verify"],
        ProcessExitCode.create(value=exit_code),
        BaseTool2.RunOutput(lines),
        termination_reason,
    )


# executable and version
locator = BaseTool2.ToolLocator(tool_directory=os.path.dirname(EXE))
check(tool.executable(locator) == EXE, "executable found in the tool directory")
version = tool.version(EXE)
check(version and version[0].isdigit(), f"version is a number: {version!r}")
check(tool.name() == "Lapidary", "name")

# command line
task = BaseTool2.Task.with_files(
    ["prog.c"], property_file="unreach-call.prp", options={"data_model": "LP64"}
)
limits = BaseTool2.ResourceLimits(cputime=900, cputime_hard=960)
cmd = tool.cmdline(EXE, ["--solver", "z3"], task, limits)
check(cmd[0] == EXE and cmd[1] == "--svcomp", f"svcomp mode: {cmd}")
check(cmd[-1] == "prog.c", f"input file last: {cmd}")
check("--spec" in cmd and cmd[cmd.index("--spec") + 1] == "unreach-call.prp", f"spec: {cmd}")
check(cmd[cmd.index("--architecture") + 1] == "64bit", f"data model: {cmd}")
check(cmd[cmd.index("--timeout") + 1] == "900", f"timeout: {cmd}")
check(cmd[2:4] == ["--solver", "z3"], f"options passed: {cmd}")
ilp = BaseTool2.Task.with_files(["p.c"], property_file=None, options={"data_model": "ILP32"})
cmd = tool.cmdline(EXE, [], ilp, BaseTool2.ResourceLimits())
check(cmd[cmd.index("--architecture") + 1] == "32bit", f"ILP32: {cmd}")
check("--spec" not in cmd, f"no property file: {cmd}")

# results of captured outputs
cases = [
    (["prog.c: SAFE", "TRUE"], 0, None, result.RESULT_TRUE_PROP),
    (["prog.c: UNSAFE (assertion can be violated)", "", "FALSE(unreach-call)"], 1, None,
     result.RESULT_FALSE_REACH),
    (["prog.c: NONTERMINATING", "FALSE(termination)"], 1, None, result.RESULT_FALSE_TERMINATION),
    (["prog.c: UNKNOWN (unsupported: pointer at prog.c:3)", "UNKNOWN"], 2, None,
     result.RESULT_UNKNOWN),
    (["prog.c: UNKNOWN (timeout)", "UNKNOWN"], 2, "cputime", result.RESULT_TIMEOUT),
    ([], 0, "cputime", result.RESULT_TIMEOUT),
    (["error: cannot read prog.c", "ERROR"], 3, None, result.RESULT_ERROR),
    (["thread 'main' panicked"], 101, None, result.RESULT_ERROR),
]
for lines, code, reason, expected in cases:
    got = tool.determine_result(run_of(lines, code, reason))
    check(got == expected, f"{lines!r}: expected {expected!r}, got {got!r}")
    check(result.get_result_classification(got) is not None, f"classified: {got!r}")

# a real run: the last line is read
with tempfile.TemporaryDirectory() as d:
    prog = os.path.join(d, "prog.c")
    with open(prog, "w") as f:
        f.write("extern void reach_error(void);\nint main(void) { int x = 1; if (x != 1) reach_error(); return 0; }\n")
    prp = os.path.join(d, "unreach-call.prp")
    with open(prp, "w") as f:
        f.write("CHECK( init(main()), LTL(G ! call(reach_error())) )\n")
    task = BaseTool2.Task.with_files([prog], property_file=prp, options={"data_model": "ILP32"})
    cmd = tool.cmdline(EXE, [], task, BaseTool2.ResourceLimits(cputime=60, cputime_hard=60))
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    got = tool.determine_result(run_of(p.stdout.splitlines(), p.returncode))
    check(got == result.RESULT_TRUE_PROP, f"real run: {got!r}\n{p.stdout}\n{p.stderr}")

if failures:
    print("FAILED:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("ok: BenchExec", __import__("benchexec").__version__)
