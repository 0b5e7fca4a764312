"""When `tree` synthesizes pods: only for a definition whose selectors or gang keys the synthesized pods
could prove wrong (WM730-WM732), on the first manifests of each definition; a definition with nothing to
check (one component with a pod template, no instance selector, no gang key) costs no synthesis."""

from __future__ import annotations

from pathlib import Path

import pytest

from wmaplint.resolve import verify
from wmaplint.resolve.run import VERIFIED_MANIFESTS, resolve_files

EXAMPLES = Path(__file__).resolve().parents[2] / "catalog" / "examples"
DEPLOYMENT = EXAMPLES / "apps-deployment-v1" / "triton-inference.yaml"
JOB = EXAMPLES / "batch-job-v1" / "indexed-gpu-job.yaml"
PYTORCH = EXAMPLES / "kubeflow-org-pytorchjob-v1" / "ddp-master-workers.yaml"


@pytest.fixture()
def synthesized(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kinds of the workloads `tree` synthesizes pods for, in order."""
    made: list[str] = []
    original = verify.synthesize

    def recording(workload, *args, **kwargs):  # type: ignore[no-untyped-def]
        made.append(workload.kind)
        return original(workload, *args, **kwargs)

    monkeypatch.setattr(verify, "synthesize", recording)
    return made


def test_tree_synthesizes_no_pod_for_a_definition_with_nothing_to_verify(synthesized: list[str]) -> None:
    run = resolve_files([str(DEPLOYMENT), str(JOB), str(PYTORCH)], validate=False)
    assert [w.kind for w in run.workloads] == ["Deployment", "Job", "PyTorchJob"]
    assert synthesized == ["PyTorchJob"]


def test_tree_synthesizes_the_first_manifests_of_a_definition_only(tmp_path: Path,
                                                                   synthesized: list[str]) -> None:
    text = PYTORCH.read_text(encoding="utf-8")
    stream = tmp_path / "stream.yaml"
    stream.write_text("---\n".join(text.replace("name: ", f"name: j{i}-", 1) for i in range(12)),
                      encoding="utf-8")
    run = resolve_files([str(stream)], validate=False)
    assert len(run.workloads) == 12
    assert synthesized == ["PyTorchJob"] * VERIFIED_MANIFESTS



def _asked(monkeypatch: pytest.MonkeyPatch) -> list[list[object]]:
    """The programs and calls asked of a manifest, one list a pass (``evaluate_many``, ``evaluate_calls``)."""
    from wmaplint.jq.runtime import JqRuntime

    passes: list[list[object]] = []
    many, calls = JqRuntime.evaluate_many, JqRuntime.evaluate_calls

    def recording_many(self, expressions, data):  # type: ignore[no-untyped-def]
        passes.append(list(expressions))
        return many(self, expressions, data)

    def recording_calls(self, asked, data, together=()):  # type: ignore[no-untyped-def]
        passes.append(list(asked))
        return calls(self, asked, data, together)

    monkeypatch.setattr(JqRuntime, "evaluate_many", recording_many)
    monkeypatch.setattr(JqRuntime, "evaluate_calls", recording_calls)
    return passes


def test_the_programs_of_entries_and_pods_are_the_models_text_whatever_the_manifest(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every distinct program text is parsed for its cost and compiled anew: the entries and pods of a
    manifest are the values of calls, so two PyTorchJobs of different workers ask the same programs, the pods
    of an entry one derive program (a call a pod, each with its own labels)."""
    import yaml

    from wmaplint.controllers import load_model
    from wmaplint.jq.runtime import JqCall, JqRuntime
    from wmaplint.resolve.created import created_pods

    passes = _asked(monkeypatch)
    obj = yaml.safe_load(PYTORCH.read_text(encoding="utf-8"))
    model = load_model().of(obj["apiVersion"], obj["kind"])
    assert model is not None
    runtime = JqRuntime()
    pods = created_pods(model, obj, runtime)
    assert pods is not None
    workers = [p for p in pods if p.labels.get("training.kubeflow.org/replica-type") == "worker"]
    assert len(workers) == obj["spec"]["pytorchReplicaSpecs"]["Worker"]["replicas"] > 1
    assert sorted(p.labels["training.kubeflow.org/replica-index"] for p in workers) == [
        str(i) for i in range(len(workers))]
    calls = [c for one in passes for c in one if isinstance(c, JqCall)]
    derive = [c for c in calls if "$group" in c.program]
    assert len(derive) == len(pods) and len({c.program for c in derive}) == 1
    first = {c.program for c in calls}

    passes.clear()
    del obj["spec"]["pytorchReplicaSpecs"]["Master"]
    obj["spec"]["pytorchReplicaSpecs"]["Worker"]["replicas"] = 5
    other = created_pods(model, obj, runtime)
    assert other is not None and len(other) == 5
    assert {c.program for one in passes for c in one if isinstance(c, JqCall)} == first
    runtime.close()


def test_a_manifest_is_read_three_times_by_its_two_syntheses(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pods made for the selectors' check and for the grouper ask the same programs of one manifest: each
    is evaluated once, and every created object's programs of a step in one pass (the entries, then each
    entry's count and template, then the pods' labels, then where the templates sit)."""
    import yaml

    from wmaplint.controllers import load_model
    from wmaplint.jq.runtime import JqRuntime
    from wmaplint.resolve.synthesis import synthesize
    from wmaplint.resolve.tree import resolve_workload

    obj = yaml.safe_load(PYTORCH.read_text(encoding="utf-8"))
    definition = next(e.definition for e in _catalog_entries() if e.gvk[2] == "PyTorchJob")
    runtime = JqRuntime()
    workload = resolve_workload(definition, obj, runtime=runtime, with_verify=False, model=load_model())
    passes = _asked(monkeypatch)
    first = synthesize(workload, obj, 2, runtime)
    second = synthesize(workload, obj, None, runtime)
    assert first and len(second) >= len(first)
    asked = [program for one in passes for program in one]
    assert len(asked) == len(set(asked))  # none twice
    assert len(passes) <= 5  # in all: entries, counts and templates, labels (each synthesis), places
    runtime.close()


def _catalog_entries():  # type: ignore[no-untyped-def]
    from wmaplint.resolve.loading import DefinitionIndex

    index = DefinitionIndex()
    index.add_catalog()
    return [entry for entries in index.catalog.values() for entry in entries]


def test_the_synthesis_runs_on_the_text_the_tree_made_of_the_manifest(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The manifest's JSON text is made once, by the tree's evaluator: its assumptions and both syntheses
    (selectors, grouper) run on that same input."""
    import yaml

    from wmaplint.controllers import load_model
    from wmaplint.jq import runtime as jq_runtime
    from wmaplint.jq.runtime import JqInput, JqRuntime
    from wmaplint.resolve.created import results_of
    from wmaplint.resolve.tree import resolve_workload

    obj = yaml.safe_load(PYTORCH.read_text(encoding="utf-8"))
    made: list[object] = []
    fast_text = jq_runtime._fast_text

    def recording(value):  # type: ignore[no-untyped-def]
        made.append(value)
        return fast_text(value)

    monkeypatch.setattr(jq_runtime, "_fast_text", recording)
    definition = next(e.definition for e in _catalog_entries() if e.gvk[2] == "PyTorchJob")
    runtime = JqRuntime()
    workload = resolve_workload(definition, obj, runtime=runtime, model=load_model())
    assert workload.grouping is not None and workload.assumptions is not None
    assert sum(1 for value in made if value is obj) == 1

    assert results_of(runtime, obj, JqInput({"other": 1})).input.value is obj  # not the input of another
    runtime.close()
