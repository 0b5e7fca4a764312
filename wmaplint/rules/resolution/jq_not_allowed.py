"""WM705 jq-not-allowed: a definition expression uses a builtin that the workload runtime does not offer."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import BuiltinNotAllowed
from wmaplint.rules import reports
from wmaplint.rules.examples import jobset_tree

RULE = define(
    "WM705",
    "jq-not-allowed",
    "error",
    "A definition expression uses a builtin that the workload runtime does not offer.",
    why="The runtime embeds gojq as a library (GOJQ.md §6): `input` and `inputs` fail to compile, `env` and "
    "`$ENV` are `{}`, `debug`, `stderr`, `input_filename` and C jq's `keys_unsorted` are not defined, and "
    "`halt` and `halt_error` end the evaluation with an error.",
    bad=jobset_tree(".spec.replicatedJobs[] | $ENV.REPLICAS // 1"),
    good=jobset_tree(),
    fix="Read everything from the workload object itself; use `keys` (gojq keys are always sorted).",
    example_mode="tree",
)


@reports(RULE, BuiltinNotAllowed)
def message(finding: BuiltinNotAllowed) -> str:
    return f"{finding.what} `{finding.program}` failed: {finding.error}"
