"""Runners for rule examples that `check` alone cannot show (resolution, test suites, schema sources)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable

from wmaplint.rules.examples import JOB


def _resolution(mode: str) -> Callable[[str, str], Iterable[str]]:
    def run(text: str, filename: str) -> Iterable[str]:
        from wmaplint.resolve.examples import lint_example

        return [d.rule for d in lint_example(text, mode, filename)]

    return run


def _schema_source(text: str, filename: str) -> Iterable[str]:
    """The example is a schema file; lint the Job example with it as an extra source."""
    from wmaplint.config import Overrides
    from wmaplint.engine import Options, lint_text

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, filename)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        options = Options(overrides=Overrides(extra_crds=(path,)))
        return [d.rule for d in lint_text(JOB, "job.yaml", options)]


def _crd_object(text: str, filename: str) -> Iterable[str]:
    """The example is a CRD, then an object of its kind: the CRD's validation rules run on the object."""
    import yaml

    from wmaplint.cel import validate_object
    from wmaplint.diagnostics import Span
    from wmaplint.rules import diagnostics_of

    crd, obj = yaml.safe_load_all(text)
    schema = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    found = diagnostics_of(v.at(filename, Span.whole_file()) for v in validate_object(schema, obj))
    return [d.rule for d in found]


RUNNERS: dict[str, Callable[[str, str], Iterable[str]]] = {
    "tree": _resolution("tree"),
    "definition-file": _resolution("definition-file"),
    "test": _resolution("test"),
    "schema-source": _schema_source,
    "crd-object": _crd_object,
}
