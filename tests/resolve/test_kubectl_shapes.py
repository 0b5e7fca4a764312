"""What kubectl prints goes in as it is: a `v1 List` (YAML or JSON), a stream of JSON objects (`kubectl get -w
-o json`) and watch events (`--output-watch-events`), from files and from `-`, give the tree of the objects
they hold, in `tree`, `tree --pods`, `new --manifest` and suites; a broken stream is a positioned finding."""

import json
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner

from wmaplint import cli_new, cli_resolve
from wmaplint.resolve import loading
from wmaplint.resolve.loading import Budget, load_file

ROOT = Path(__file__).parents[2]
JOBSETS = ROOT / "catalog" / "examples" / "jobset-x-k8s-io-jobset-v1alpha2"
MANIFESTS = [JOBSETS / "leader-workers-gpu.yaml", JOBSETS / "multislice-suspended.yaml"]
PODS = ROOT / "tests" / "rules" / "fixtures" / "WM734-pod-count-differs"


@pytest.fixture()
def cli():
    group = click.Group(commands={"tree": cli_resolve.tree, "test": cli_resolve.test, "new": cli_new.new})
    runner = CliRunner()
    return lambda *args, **kw: runner.invoke(group, [str(a) for a in args], **kw)


def _objects() -> list[dict]:
    return [yaml.safe_load(path.read_text()) for path in MANIFESTS]


def _as_list(objects: list[dict]) -> dict:
    # keys in the order kubectl prints them: its JSON encoder sorts them
    return {"apiVersion": "v1", "items": objects, "kind": "List", "metadata": {"resourceVersion": ""}}


def _json_stream(objects: list[dict]) -> str:
    # cli-runtime's JSONPrinter: json.MarshalIndent with four spaces, then a line break
    return "".join(json.dumps(o, indent=4) + "\n" for o in objects)


def _events_json(events: list[tuple[str, dict]]) -> str:
    # a metav1.WatchEvent is printed with json.Marshal: one line each
    return "".join(json.dumps({"type": t, "object": o}) + "\n" for t, o in events)


def _events_yaml(events: list[tuple[str, dict]]) -> str:
    return "---\n".join(yaml.safe_dump({"object": o, "type": t}) for t, o in events)


def _shapes(objects: list[dict]) -> dict[str, str]:
    return {
        "list.yaml": yaml.safe_dump(_as_list(objects)),
        "list.json": json.dumps(_as_list(objects), indent=4) + "\n",
        "stream.json": _json_stream(objects),
        "events.json": _events_json([("ADDED", o) for o in objects]),
        "events.yaml": _events_yaml([("ADDED", o) for o in objects]),
        "JobSetList.json": json.dumps({**_as_list(objects), "apiVersion": "jobset.x-k8s.io/v1alpha2",
                                       "kind": "JobSetList"}),
    }


def test_every_shape_gives_the_tree_of_the_documents_it_holds_from_a_file_and_from_stdin(cli, tmp_path):
    direct = cli("tree", *MANIFESTS)
    assert direct.exit_code == 0, direct.output
    assert direct.stdout.count("JobSet research/") == 2
    for name, text in _shapes(_objects()).items():
        path = tmp_path / name
        path.write_text(text)
        from_file = cli("tree", path)
        assert (from_file.exit_code, from_file.stdout) == (0, direct.stdout), name
        from_stdin = cli("tree", "-", input=text)
        assert (from_stdin.exit_code, from_stdin.stdout) == (0, direct.stdout), name


def test_a_watch_is_read_as_the_state_it_ends_in(cli, tmp_path):
    first, second = _objects()
    older = json.loads(json.dumps(first))
    older["spec"]["replicatedJobs"][1]["replicas"] = 5  # an earlier version: five workers
    gone = json.loads(json.dumps(second))
    events = [("ADDED", older), ("ADDED", second), ("MODIFIED", first), ("DELETED", gone)]
    path = tmp_path / "watch.json"
    path.write_text(_events_json(events))
    result = cli("tree", path, "--format", "json")
    assert result.exit_code == 0, result.output
    workloads = json.loads(result.stdout)["workloads"]
    assert [(w["name"], w["totals"]["pods"]) for w in workloads] == [("llm-pretrain", 3)]


def test_record_reads_every_version(tmp_path):
    first, second = _objects()
    path = tmp_path / "watch.json"
    path.write_text(_events_json([("ADDED", first), ("MODIFIED", first), ("DELETED", second)]))
    loaded = load_file(str(path), versions=True)
    assert [d.event for d in loaded.documents] == ["ADDED", "MODIFIED", "DELETED"]
    assert load_file(str(path)).watch


def test_a_bookmark_is_passed_by_and_an_error_event_is_said(tmp_path):
    first = _objects()[0]
    bookmark = {"kind": "JobSet", "apiVersion": "jobset.x-k8s.io/v1alpha2",
                "metadata": {"resourceVersion": "9"}}
    status = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
              "message": "too old resource version: 1 (2)", "reason": "Expired", "code": 410}
    path = tmp_path / "watch.json"
    path.write_text(_events_json([("ADDED", first), ("BOOKMARK", bookmark), ("ERROR", status)]))
    loaded = load_file(str(path))
    assert [d.value["metadata"]["name"] for d in loaded.documents] == ["llm-pretrain"]
    assert loaded.notes == [f"{path}: line 3: the watch ended with an ERROR event (Expired: too old resource "
                            "version: 1 (2))"]


def test_a_finding_in_a_stream_stands_where_the_object_is_in_the_file(cli, tmp_path):
    objects = _objects()
    objects[1]["spec"]["replicatedJobz"] = objects[1]["spec"].pop("replicatedJobs")
    text = _json_stream(objects)
    path = tmp_path / "stream.json"
    path.write_text(text)
    lines = text.splitlines()
    line = next(i for i, t in enumerate(lines, 1) if '"replicatedJobz"' in t)
    column = lines[line - 1].index('"replicatedJobz"') + 1
    result = cli("tree", path)
    assert f"{path}:{line}:{column}: warning WM607 unknown field \"spec.replicatedJobz\"" in result.stderr


def test_a_list_item_is_placed_in_the_file(cli, tmp_path):
    objects = _objects()
    objects[0]["spec"]["replicatedJobz"] = objects[0]["spec"].pop("replicatedJobs")
    text = yaml.safe_dump(_as_list(objects))
    path = tmp_path / "list.yaml"
    path.write_text(text)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "replicatedJobz:" in t)
    result = cli("tree", path)
    assert f"{path}:{line}:" in result.stderr
    assert "WM607 unknown field \"spec.replicatedJobz\"" in result.stderr


@pytest.mark.parametrize(("cut", "said"), [
    (lambda t: t[: len(t) - 200], "Expecting"),  # interrupted while printing
    (lambda t: t + "not json\n", "expected another JSON object"),
])
def test_a_broken_stream_is_a_positioned_finding(cli, tmp_path, cut, said):
    text = cut(_json_stream(_objects()))
    path = tmp_path / "stream.json"
    path.write_text(text)
    result = cli("tree", path)
    assert result.exit_code == 1, result.output
    finding = next(line for line in result.stderr.splitlines() if "WM101" in line)
    assert finding.startswith(f"{path}:") and "the stream of JSON objects breaks here" in finding
    assert said in finding
    assert "JobSet research/llm-pretrain" in result.stdout  # what came before the break is resolved


def test_one_json_object_then_yaml_is_read_as_yaml(tmp_path):
    first, second = _objects()
    path = tmp_path / "mixed.yaml"
    path.write_text(json.dumps(first) + "\n---\n" + yaml.safe_dump(second))
    loaded = load_file(str(path))
    assert [d.value["metadata"]["name"] for d in loaded.documents] == ["llm-pretrain", "multislice-finetune"]
    assert not loaded.problems and not loaded.watch


def test_pods_from_a_watch_count_once_each_and_a_deleted_pod_is_gone(cli, tmp_path):
    pods = json.loads((PODS / "pods.json").read_text())["items"]
    agreeing = tmp_path / "pods-watch.json"
    agreeing.write_text(_json_stream(pods + pods))  # every pod seen twice
    result = cli("tree", PODS / "jobset.yaml", "--pods", agreeing)
    assert result.exit_code == 0, result.output
    assert "WM734" not in result.stderr
    deleted = tmp_path / "pods-deleted.json"
    deleted.write_text(_events_json([("ADDED", p) for p in pods] + [("DELETED", pods[2])]))
    result = cli("tree", PODS / "jobset.yaml", "--pods", deleted)
    assert "replicatedjob/worker: the tree predicts 2 pods, the pod list has 1" in result.stderr


def test_a_list_of_pods_kubectl_get_pods_prints_is_read_among_the_manifests(cli, tmp_path):
    listed = yaml.safe_load((ROOT / "catalog" / "examples" / "core-pod-v1" / "gpu-notebook.yaml").read_text())
    path = tmp_path / "pods.yaml"
    path.write_text(yaml.safe_dump(_as_list([listed])))
    result = cli("tree", path)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Pod {listed['metadata']['namespace']}/{listed['metadata']['name']}")


def test_new_reads_a_list_as_its_manifest(cli, tmp_path):
    text = json.dumps(_as_list(_objects()[:1]))
    (tmp_path / "list.json").write_text(text)
    for manifest, given in ((tmp_path / "list.json", None), ("-", text)):
        result = cli("new", "--kind", "JobSet", "--manifest", manifest, input=given)
        assert "JobSet research/llm-pretrain:" in result.stderr, result.output


def test_a_suite_case_reads_a_list_as_its_manifest(cli, tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "list.json").write_text(json.dumps(_as_list(_objects()[:1])))
    (tmp_path / "jobset.test.yaml").write_text(
        "definition: {file: " + str(ROOT / "catalog" / "jobset-x-k8s-io-jobset-v1alpha2.yaml") + "}\n"
        "cases:\n- name: from kubectl\n  manifest: list.json\n  expect:\n    totals: {pods: 3, gpus: 12}\n"
    )
    result = cli("test", tmp_path / "jobset.test.yaml")
    assert result.exit_code == 0, result.output


def test_a_list_over_a_documents_size_is_read_item_by_item(tmp_path, monkeypatch):
    monkeypatch.setattr(loading, "MAX_DOCUMENT_BYTES", 8192)
    first, second = _objects()  # 4.9 kB and 3.1 kB as kubectl's JSON
    path = tmp_path / "list.json"
    path.write_text(json.dumps(_as_list([first, second, first]), indent=4))
    assert len(path.read_text()) > 8192
    loaded = load_file(str(path), budget=Budget())
    assert [d.value["metadata"]["name"] for d in loaded.documents] == ["llm-pretrain", "multislice-finetune",
                                                                       "llm-pretrain"]
    assert not loaded.problems
    big = json.loads(json.dumps(first))
    big["metadata"]["annotations"] = {"padding": "x" * 8192}
    path.write_text(json.dumps(_as_list([first, big]), indent=4))
    loaded = load_file(str(path), budget=Budget())
    assert [d.value["metadata"]["name"] for d in loaded.documents] == ["llm-pretrain"]
    assert [p.rule for p in loaded.problems] == ["WM718"]
    assert loaded.problems[0].span.start_line == path.read_text().splitlines().index("        {", 100) + 1


def test_a_list_over_the_lists_size_is_refused_before_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(loading, "MAX_DOCUMENT_BYTES", 1024)
    monkeypatch.setattr(loading, "MAX_LIST_BYTES", 4096)
    path = tmp_path / "list.json"
    path.write_text(json.dumps(_as_list(_objects() * 3), indent=4))
    loaded = load_file(str(path), budget=Budget())
    assert loaded.documents == []
    assert [p.rule for p in loaded.problems] == ["WM718"]


def test_the_items_of_a_list_count_as_documents(tmp_path, monkeypatch):
    monkeypatch.setattr(loading, "MAX_DOCUMENTS", 2)
    path = tmp_path / "list.json"
    path.write_text(json.dumps(_as_list(_objects() * 2)))
    loaded = load_file(str(path), budget=Budget())
    assert len(loaded.documents) == 2
    said = "more than 2 manifest documents; this one and the rest are not resolved"
    assert [p.message for p in loaded.problems] == [said]


def test_a_stream_object_over_a_documents_size_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(loading, "MAX_DOCUMENT_BYTES", 8192)
    first, second = _objects()
    big = json.loads(json.dumps(second))
    big["metadata"]["annotations"] = {"padding": "x" * 8192}
    path = tmp_path / "stream.json"
    path.write_text(_json_stream([first, big]))
    loaded = load_file(str(path), budget=Budget())
    assert [d.value["metadata"]["name"] for d in loaded.documents] == ["llm-pretrain"]
    assert [p.rule for p in loaded.problems] == ["WM718"]


def _node_limit(monkeypatch, nodes: int) -> None:
    monkeypatch.setattr(loading, "MAX_DOCUMENT_NODES", nodes)
    monkeypatch.setattr(loading, "MANIFEST_LIMITS", loading.ReadLimits(document_nodes=nodes))


def test_a_list_over_a_documents_nodes_is_read_item_by_item(tmp_path, monkeypatch):
    """The reader passes over a manifest document past the node limit unbuilt; a list is built whole (its size
    is held before) and its items are held to the limit one by one."""
    first, second = _objects()
    path = tmp_path / "list.json"
    path.write_text(json.dumps(_as_list([first, second]), indent=4))
    _node_limit(monkeypatch, 180)  # the list holds about 300 nodes, its items 173 and 123
    loaded = load_file(str(path), budget=Budget())
    assert [d.value["metadata"]["name"] for d in loaded.documents] == ["llm-pretrain", "multislice-finetune"]
    assert not loaded.problems
    _node_limit(monkeypatch, 150)
    loaded = load_file(str(path), budget=Budget())
    assert [d.value["metadata"]["name"] for d in loaded.documents] == ["multislice-finetune"]
    assert [p.rule for p in loaded.problems] == ["WM718"]


def test_a_document_or_stream_object_over_the_nodes_is_passed_over_where_it_stands(tmp_path, monkeypatch):
    first, second = _objects()
    _node_limit(monkeypatch, 150)
    path = tmp_path / "two.yaml"
    path.write_text(yaml.safe_dump(second) + "---\n" + yaml.safe_dump(first))
    loaded = load_file(str(path), budget=Budget())
    assert [d.value["metadata"]["name"] for d in loaded.documents] == ["multislice-finetune"]
    assert [(p.rule, p.span.start_line) for p in loaded.problems] == [
        ("WM718", path.read_text().splitlines().index("---") + 2)]
    path = tmp_path / "stream.json"
    path.write_text(_json_stream([second, first]))
    loaded = load_file(str(path), budget=Budget())
    assert [d.value["metadata"]["name"] for d in loaded.documents] == ["multislice-finetune"]
    starts = [i + 1 for i, line in enumerate(path.read_text().splitlines()) if line == "{"]
    assert [(p.rule, p.span.start_line) for p in loaded.problems] == [("WM718", starts[1])]


def test_a_document_whose_aliases_expand_past_the_nodes_is_passed_over(tmp_path, monkeypatch):
    """The reader counts each place of an alias as nodes of its own: the tree resolved is the tree counted."""
    items = ", ".join(str(i) for i in range(20))
    path = tmp_path / "aliases.yaml"
    path.write_text("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\n"
                    f"spec: {{a: &x [{items}], b: *x, c: *x}}\n")
    _node_limit(monkeypatch, 80)  # 35 nodes as written, 77 with the aliases expanded
    loaded = load_file(str(path), budget=Budget())
    assert [d.value["spec"]["c"][19] for d in loaded.documents] == [19] and not loaded.problems
    _node_limit(monkeypatch, 60)
    loaded = load_file(str(path), budget=Budget())
    assert not loaded.documents and [p.rule for p in loaded.problems] == ["WM718"]
