"""Evaluate a definition's expressions on one document (a manifest, or a pod), recording each failure."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wmaplint.jq.runtime import JqInput, JqResult, JqRuntime
from wmaplint.resolve.findings import BuiltinNotAllowed, EvaluationFailed, LimitExceeded

if TYPE_CHECKING:
    from wmaplint.definition.model import Expr
    from wmaplint.findings import FileFinding
    from wmaplint.source.plain import Json


class Evaluator:
    """Runs expressions on one document; a failure becomes a finding at the expression, in file ``path``."""

    def __init__(self, runtime: JqRuntime, data: Json | JqInput, findings: list[FileFinding], path: str,
                 known: dict[str, JqResult] | None = None) -> None:
        self.runtime = runtime
        self.input = data if isinstance(data, JqInput) else JqInput(data)  # a prepared input keeps its text
        self.findings = findings
        self.path = path
        # results on this input had already (shared by the evaluators of one input): prefetched here
        self._prefetched: dict[str, JqResult] = {} if known is None else known

    def prefetch(self, programs: list[str]) -> None:
        """Evaluate the programs that will be asked for in one pass over the input
        (``JqRuntime.evaluate_many``)."""
        self._prefetched.update(self.runtime.evaluate_many(programs, self.input))

    def run(self, expr: Expr, what: str, program: str | None = None) -> JqResult | None:
        """Outputs of ``expr`` (or of ``program``, which is built from it), or None and a finding when it
        fails. ``what`` names its place for the message ("replicasPath of worker")."""
        program = expr.text if program is None else program
        result = self._prefetched.get(program)
        if result is None:
            result = self.runtime.evaluate(program, self.input)
        if result.ok:
            return result
        refused = self.runtime.compile_error(program)
        kind: type[EvaluationFailed | BuiltinNotAllowed | LimitExceeded]
        if result.limited:
            kind = LimitExceeded
        elif refused is not None and "not available in the workload runtime" in refused:
            kind = BuiltinNotAllowed
        else:
            kind = EvaluationFailed
        self.findings.append(kind(self.path, expr.node.span, what, program, str(result.error)))
        return None
