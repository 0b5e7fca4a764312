"""Status mapping analysis speed: the catalog definitions and a definition with many matchers."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

from wmaplint.config import Config
from wmaplint.controllers.load import load_model
from wmaplint.definition.model import build
from wmaplint.diagnostics import Diagnostic
from wmaplint.rules.context import DefinitionContext
from wmaplint.source import load_text
from wmaplint.status.conjunctions import conjunctions_of

REPO = Path(__file__).resolve().parents[1]


def _time(fn: Callable[[], object], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def status_rules(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    """The findings of the status rules alone: their checks and the analysis whose findings they report."""
    from wmaplint import rules
    from wmaplint.rules.status import consistency

    rules.load()
    for _, check in rules.DEFINITION_CHECKS:
        if check.__module__.startswith("wmaplint.rules.status."):
            yield from check(ctx)
    yield from rules.diagnostics_of(consistency(ctx))


def main() -> None:
    load_model()
    texts = [p.read_text() for p in sorted((REPO / "catalog").glob("*.yaml"))]
    job = (REPO / "catalog" / "batch-job-v1.yaml").read_text()
    entry = ("            - byConditions: [{{type: Failed, status: \"True\"}}, "
             "{{type: T{i}, status: \"True\"}}]\n")
    many = job.replace("            - byConditions: [{type: FailureTarget, status: \"True\"}]\n",
                       "".join(entry.format(i=i) for i in range(300)))
    assert many != job

    def analyse(text: str) -> int:
        source = load_text(text, "d.yaml")
        definition = build(source.documents[0].root)
        assert definition is not None
        ctx = DefinitionContext("d.yaml", source, source.documents[0], definition, Config())
        return sum(1 for _ in status_rules(ctx))

    prepared = [(load_text(t, "d.yaml"), t) for t in texts]

    def conjunctions() -> None:
        for source, _ in prepared:
            definition = build(source.documents[0].root)
            if definition is not None and definition.root is not None and definition.root.status is not None:
                conjunctions_of(definition.root.status)

    per_def = _time(conjunctions, 50)
    print(f"status_model_catalog: {per_def / len(prepared) * 1e6:.1f} us/definition")
    print(f"status_check_catalog: {_time(lambda: [analyse(t) for t in texts], 10) / len(texts) * 1e3:.2f} "
          "ms/definition")
    print(f"status_check_300_matchers: {_time(lambda: analyse(many), 3) * 1e3:.1f} ms")
    print(f"status_findings_300_matchers: {analyse(many)} findings")


if __name__ == "__main__":
    main()
