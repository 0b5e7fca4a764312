"""Runners for rule examples that `check` alone cannot show (resolution, test suites, schema sources).

Each writes the example to a file of its own and runs on it what a user would: ``tree`` resolves a file that
holds definitions, manifests and pods; ``definition-file`` passes the file with --definition; ``test`` runs
the file as a definition test suite.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from wmaplint.diagnostics import Diagnostic
from wmaplint.rules.examples import JOB


@contextmanager
def _written(text: str, filename: str) -> Iterator[str]:
    """The path of a temporary file holding ``text``."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, filename)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        yield path


def example_diagnostics(text: str, mode: str = "tree", filename: str = "example.yaml") -> list[Diagnostic]:
    """The diagnostics of a resolution example (modes ``tree``, ``definition-file`` and ``test``)."""
    with _written(text, filename) as path:
        if mode == "test":
            from pathlib import Path

            from wmaplint.suites.runner import suite_diagnostics
            from wmaplint.suites.suite import run_suite

            return suite_diagnostics(run_suite(Path(path)))
        from wmaplint.resolve.run import resolve_files

        if mode == "definition-file":
            return resolve_files([], [path], use_catalog=False).diagnostics
        return resolve_files([path], use_catalog=False).diagnostics


def _resolution(mode: str) -> Callable[[str, str], Iterable[str]]:
    def run(text: str, filename: str) -> Iterable[str]:
        return [d.rule for d in example_diagnostics(text, mode, filename)]

    return run


def _schema_source(text: str, filename: str) -> Iterable[str]:
    """The example is a schema file; lint the Job example with it as an extra source."""
    from wmaplint.config import Overrides
    from wmaplint.engine import Options, lint_text

    with _written(text, filename) as path:
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
