"""Matchers as conjunctions of requirements: phase expressions, contradictions, implication, subsumption."""

from __future__ import annotations

from wmaplint.controllers import model_for
from wmaplint.controllers.paths import normalise_path
from wmaplint.definition.model import build
from wmaplint.source import load_text
from wmaplint.status.conjunctions import (
    Requirement,
    conflict,
    conjunctions_of,
    describe_object,
    expression_requirement,
    implies,
    subsumes,
)

from .helpers import catalog_text


def _conjunctions(text: str):
    source = load_text(text, "d.yaml")
    definition = build(source.documents[0].root)
    assert definition is not None and definition.root is not None and definition.root.status is not None
    return conjunctions_of(definition.root.status)


def test_phase_expressions_become_phase_requirements() -> None:
    path = ".status.jobDeploymentStatus"
    phase = expression_requirement
    assert phase('(.status.jobDeploymentStatus // "") == ""', "true", path) == Requirement("phase", "", "")
    assert phase(".status.jobDeploymentStatus", "Running", path) == Requirement("phase", "", "Running")
    assert phase('"Failed" == .status.jobDeploymentStatus', "false", path) == Requirement(
        "phase", "", "Failed", positive=False
    )
    assert phase('.status.jobDeploymentStatus != "Failed"', "true", path) == Requirement(
        "phase", "", "Failed", positive=False
    )
    assert phase(".status.jobStatus", "SUCCEEDED", path).kind == "expr"


def test_normalise_path() -> None:
    assert normalise_path(' ( .status.state // "" ) ') == ".status.state"
    assert normalise_path(".status.state // null") == ".status.state"


def test_catalog_rayjob_model() -> None:
    conjunctions = _conjunctions(catalog_text("ray-io-rayjob-v1.yaml"))
    initializing = conjunctions["initializing"]
    assert initializing[0].requirements == frozenset({Requirement("phase", "", "Initializing")})
    # an object the controller has not written (phase "") reads Undefined: no matcher asks for it
    assert all(Requirement("phase", "", "") not in c.requirements for c in initializing)
    pending = initializing[-1].requirements
    assert Requirement("phase", "", "Running") in pending
    assert Requirement("expr", '.status.jobStatus // ""', "PENDING") in pending
    completed = conjunctions["completed"][0]
    assert Requirement("phase", "", "Complete") in completed.requirements and len(completed.opaque) == 1


def test_conflicts() -> None:
    assert conflict({Requirement("cond", "Ready", "True"), Requirement("cond", "Ready", "False")})
    assert conflict({Requirement("phase", "", "A"), Requirement("phase", "", "B")})
    assert conflict({Requirement("phase", "", "A"), Requirement("phase", "", "A", positive=False)})
    assert conflict({Requirement("expr", "x", "1"), Requirement("expr", "x", "2")})
    assert conflict({Requirement("cond", "Ready", "True"), Requirement("phase", "", "A")}) is None
    job = model_for("batch", "Job", "v1")
    pair = {Requirement("cond", "Complete", "True"), Requirement("cond", "Failed", "True")}
    assert conflict(pair) is None and "never sets" in (conflict(pair, job) or "")


def test_implication() -> None:
    requirements = frozenset({Requirement("cond", "Ready", "True"), Requirement("phase", "", "Running")})
    assert implies(requirements, Requirement("exists", "Ready"))
    assert implies(requirements, Requirement("phase", "", "Failed", positive=False))
    assert not implies(requirements, Requirement("cond", "Ready", "False"))
    assert not implies(requirements, Requirement("exists", "Failed"))


def test_subsumption_on_a_real_definition() -> None:
    conjunctions = _conjunctions(catalog_text("kubeflow-org-pytorchjob-v1.yaml"))
    running = conjunctions["running"][0]
    failed = conjunctions["failed"][0]
    assert not subsumes(running, failed) and not subsumes(failed, running)
    assert subsumes(running, running)


def test_describe_object() -> None:
    requirements = frozenset(
        {Requirement("cond", "Failed", "True"), Requirement("cond", "Complete", "True"),
         Requirement("phase", "", "X")}
    )
    assert describe_object(requirements) == "conditions Complete=True and Failed=True; phase 'X'"
    assert describe_object(frozenset()) == "any object"
