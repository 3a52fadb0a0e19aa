# BenchExec tool-info module for Lapidary (https://github.com/sosy-lab/benchexec).
#
# Install: copy this file into `benchexec/tools/` (or put this directory on PYTHONPATH and name the
# tool `lapidary` with `--tool-directory` pointing at a directory that holds `verify`, or at the
# repository root after `cargo build --release`).
#
# Lapidary is run in SV-COMP mode (`--svcomp`): the last line of standard output is the verdict
# (`TRUE`, `FALSE(property)`, `UNKNOWN`, `ERROR`), the reason of UNKNOWN/ERROR is on standard error.

import benchexec.result as result
import benchexec.tools.template


class Tool(benchexec.tools.template.BaseTool2):
    """Lapidary: a software verifier based on trace abstraction."""

    def executable(self, tool_locator):
        try:
            return tool_locator.find_executable("verify")
        except benchexec.tools.template.ToolNotFoundException:
            return tool_locator.find_executable("verify", subdir="target/release")

    def name(self):
        return "Lapidary"

    def version(self, executable):
        # `verify --version` prints `verify X.Y.Z`
        return self._version_from_tool(executable, line_prefix="verify")

    def cmdline(self, executable, options, task, rlimits):
        cmd = [executable, "--svcomp"] + list(options)
        if task.property_file:
            cmd += ["--spec", task.property_file]
        data_model = (task.options or {}).get("data_model")
        if data_model == "ILP32":
            cmd += ["--architecture", "32bit"]
        elif data_model == "LP64":
            cmd += ["--architecture", "64bit"]
        # the verifier's own limit: the CPU-time limit if there is one, else none (its default is
        # 60 s; ten years or more means no limit)
        limit = rlimits.cputime or rlimits.walltime
        cmd += ["--timeout", str(limit if limit else 315360000)]
        return cmd + list(task.input_files_or_identifier)

    def determine_result(self, run):
        lines = [line.strip() for line in run.output if line.strip()]
        last = lines[-1] if lines else ""
        if last == "TRUE":
            return result.RESULT_TRUE_PROP
        if last.startswith("FALSE(") and last.endswith(")"):
            return result.RESULT_FALSE_PROP + last[len("FALSE") :]
        if last == "FALSE":
            return result.RESULT_FALSE_PROP
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        if last == "UNKNOWN":
            return result.RESULT_UNKNOWN
        return result.RESULT_ERROR
