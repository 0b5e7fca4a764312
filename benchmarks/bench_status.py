"""Status mapping analysis speed: the catalog definitions and a definition with many matchers."""

from __future__ import annotations

import time
from pathlib import Path

from wmaplint.definition.model import build
from wmaplint.source import load_text
from wmaplint.status import build_model, load_knowledge

REPO = Path(__file__).resolve().parents[1]


def _time(fn, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def main() -> None:
    from wmaplint.checks import Context
    from wmaplint.checks.status_semantics import status_semantics

    load_knowledge()
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
        ctx = Context("d.yaml", source, source.documents[0], definition)
        return sum(1 for _ in status_semantics(ctx))

    prepared = [(load_text(t, "d.yaml"), t) for t in texts]
    per_def = _time(lambda: [build_model(build(s.documents[0].root).root.status) for s, _ in prepared], 50)
    print(f"status_model_catalog: {per_def / len(prepared) * 1e6:.1f} us/definition")
    print(f"status_check_catalog: {_time(lambda: [analyse(t) for t in texts], 10) / len(texts) * 1e3:.2f} "
          "ms/definition")
    print(f"status_check_300_matchers: {_time(lambda: analyse(many), 3) * 1e3:.1f} ms")
    print(f"status_findings_300_matchers: {analyse(many)} findings")


if __name__ == "__main__":
    main()
