"""Matchers as conjunctions: phase expressions, contradictions, implication and subsumption."""

from __future__ import annotations

from wmaplint.definition.model import build
from wmaplint.source import load_text
from wmaplint.status import (
    EVALUATION_ORDER,
    Fact,
    build_model,
    conflict,
    describe_object,
    expression_fact,
    implies,
    subsumes,
)
from wmaplint.status.knowledge import load_knowledge, normalise_path

from .helpers import catalog_text


def _model(text: str):
    source = load_text(text, "d.yaml")
    definition = build(source.documents[0].root)
    assert definition is not None and definition.root is not None and definition.root.status is not None
    return build_model(definition.root.status)


def test_phase_expressions_become_phase_facts() -> None:
    path = ".status.jobDeploymentStatus"
    assert expression_fact('(.status.jobDeploymentStatus // "") == ""', "true", path) == Fact("phase", "", "")
    assert expression_fact(".status.jobDeploymentStatus", "Running", path) == Fact("phase", "", "Running")
    assert expression_fact('"Failed" == .status.jobDeploymentStatus', "false", path) == Fact(
        "phase", "", "Failed", positive=False
    )
    assert expression_fact('.status.jobDeploymentStatus != "Failed"', "true", path) == Fact(
        "phase", "", "Failed", positive=False
    )
    assert expression_fact(".status.jobStatus", "SUCCEEDED", path).kind == "expr"


def test_normalise_path() -> None:
    assert normalise_path(' ( .status.state // "" ) ') == ".status.state"
    assert normalise_path(".status.state // null") == ".status.state"


def test_catalog_rayjob_model() -> None:
    model = _model(catalog_text("ray-io-rayjob-v1.yaml"))
    initializing = model.conjunctions["initializing"]
    assert [c.facts for c in initializing][-1] == frozenset({Fact("phase", "", "")})
    completed = model.conjunctions["completed"][0]
    assert Fact("phase", "", "Complete") in completed.facts and len(completed.opaque) == 1
    keys = [k for k, _ in model.ordered()]
    assert keys == [k for k in EVALUATION_ORDER if k in keys] and keys.index("running") < keys.index("failed")


def test_conflicts() -> None:
    assert conflict({Fact("cond", "Ready", "True"), Fact("cond", "Ready", "False")})
    assert conflict({Fact("phase", "", "A"), Fact("phase", "", "B")})
    assert conflict({Fact("phase", "", "A"), Fact("phase", "", "A", positive=False)})
    assert conflict({Fact("expr", "x", "1"), Fact("expr", "x", "2")})
    assert conflict({Fact("cond", "Ready", "True"), Fact("phase", "", "A")}) is None
    job = load_knowledge().facts("batch", "v1", "Job")
    pair = {Fact("cond", "Complete", "True"), Fact("cond", "Failed", "True")}
    assert conflict(pair) is None and "never sets" in (conflict(pair, job) or "")


def test_implication() -> None:
    facts = frozenset({Fact("cond", "Ready", "True"), Fact("phase", "", "Running")})
    assert implies(facts, Fact("exists", "Ready"))
    assert implies(facts, Fact("phase", "", "Failed", positive=False))
    assert not implies(facts, Fact("cond", "Ready", "False"))
    assert not implies(facts, Fact("exists", "Failed"))


def test_subsumption_on_a_real_definition() -> None:
    model = _model(catalog_text("kubeflow-org-pytorchjob-v1.yaml"))
    running = model.conjunctions["running"][0]
    failed = model.conjunctions["failed"][0]
    assert not subsumes(running, failed) and not subsumes(failed, running)
    assert subsumes(running, running)


def test_describe_object() -> None:
    facts = frozenset(
        {Fact("cond", "Failed", "True"), Fact("cond", "Complete", "True"), Fact("phase", "", "X")}
    )
    assert describe_object(facts) == "conditions Complete=True and Failed=True; phase 'X'"
    assert describe_object(frozenset()) == "any object"
