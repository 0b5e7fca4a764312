"""Every kind of finding an analysis records is a `findings.Finding`, in one of its three shapes; what a rule
says is a diagnostic, never a finding."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import wmaplint
from wmaplint.cel.issues import CelIssue, CelViolation, ValidationRuleCompileError, ValidationRuleRejected
from wmaplint.dataclass import fields
from wmaplint.diagnostics import ExpressionDiagnostic, Span
from wmaplint.findings import DataFinding, ExpressionFinding, FileFinding, Finding
from wmaplint.resolve.validate import ManifestProblem, SchemaViolation

FINDING_WORDS = ("FileFinding", "Finding", "Issue", "Violation", "Problem")


def _classes() -> list[type]:
    found = []
    for info in pkgutil.walk_packages(wmaplint.__path__, "wmaplint."):
        if info.name.endswith(("_worker", "__main__")):
            continue
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == info.name:
                found.append(cls)
    return found


def _is_data(cls: type) -> bool:
    try:
        fields(cls)
    except TypeError:
        return False
    return True


def test_every_class_named_as_a_finding_has_the_one_base() -> None:
    named = [c for c in _classes() if c.__name__.endswith(FINDING_WORDS) and _is_data(c)]
    assert {"CelIssue", "CelViolation", "ManifestProblem", "ObjectFinding"} <= {c.__name__ for c in named}
    outside = [f"{c.__module__}.{c.__name__}" for c in named if not issubclass(c, Finding)]
    assert outside == []


def test_each_finding_is_in_exactly_one_shape() -> None:
    shapes = (FileFinding, ExpressionFinding, DataFinding)
    findings = [c for c in _classes() if issubclass(c, Finding) and c not in (Finding, *shapes)]
    assert [c.__name__ for c in findings if sum(issubclass(c, s) for s in shapes) != 1] == []


def test_a_data_finding_placed_becomes_the_finding_of_its_kind() -> None:
    span = Span(3, 5, 3, 9)
    issue = CelIssue(ValidationRuleCompileError, "undeclared reference to 'x'", ("spec", "rule"))
    placed = issue.at("crd.yaml", span)
    assert type(placed) is ValidationRuleCompileError
    assert (placed.path, placed.span, placed.message) == ("crd.yaml", span, "undeclared reference to 'x'")
    error = "spec.x: Invalid value: 1: too big"
    violation = CelViolation(ValidationRuleRejected, error, "spec.x", "too big", ())
    rejected = violation.at("job.yaml", span)
    assert type(rejected) is ValidationRuleRejected and rejected.field_path == "spec.x"
    problem = ManifestProblem(SchemaViolation, "spec.y: Unsupported value", ("spec", "y"))
    assert type(problem.at("job.yaml", problem.span_in(None))) is SchemaViolation


def test_every_data_finding_is_placed_by_one_signature() -> None:
    """A caller places any data finding alike: the file and the span it found, and the kind's own fields."""
    expected = [(p.name, p.kind) for p in inspect.signature(DataFinding.at).parameters.values()]
    kinds = [c for c in _classes() if issubclass(c, DataFinding) and c is not DataFinding]
    assert kinds
    differing = [c.__name__ for c in kinds
                 if [(p.name, p.kind) for p in inspect.signature(c.at).parameters.values()] != expected]
    assert differing == []


def test_what_an_expression_check_says_is_worded_not_found() -> None:
    assert not issubclass(ExpressionDiagnostic, Finding)
