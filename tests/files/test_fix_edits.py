"""Edits of single values: anchors and aliases, renames onto a key that exists, titles."""

from __future__ import annotations

from wmaplint.diagnostics import fix
from wmaplint.engine import lint_text
from wmaplint.fixes import apply_edits
from wmaplint.rules.examples import JOB
from wmaplint.source import find_node, load_text, to_python
from wmaplint.source.edits import remove_pair, replace_scalar

from .test_fix_properties import JOBSET


def test_an_anchored_value_keeps_its_anchor_and_its_aliases_follow() -> None:
    text = JOBSET.replace("      ownerRef: jobset\n", "      ownerRef: &owner jobst\n").replace(
        "      - name: jobset\n", "      - name: *owner\n")
    (finding,) = [d for d in lint_text(text, "def.yaml") if d.rule == "WM507"]
    fixed = apply_edits(text, list(finding.fixes[0].edits))
    assert fixed == text.replace("&owner jobst", "&owner jobset")
    data = to_python(load_text(fixed, "def.yaml").documents[0].root)
    child = data["spec"]["structureDefinition"]["childComponents"][0]
    group = data["spec"]["optimizationInstructions"]["gangScheduling"]["podGroups"][0]
    assert child["ownerRef"] == group["name"] == "jobset"


def test_a_rename_never_makes_a_duplicate_key() -> None:
    text = JOB.replace("      specDefinition: {podTemplateSpecPath: .spec.template}\n",
                       "      specDefinition: {podTemplateSpecPath: .spec.template}\n"
                       "      specDefiniton: {podTemplateSpecPath: .spec.template}\n")
    (finding,) = [d for d in lint_text(text, "def.yaml") if d.rule == "WM112"]
    assert "did you mean 'specDefinition'" in finding.message and finding.fixes == ()


def test_no_edit_when_the_value_is_already_right_or_cannot_be_written() -> None:
    source = load_text("a: plain\nb: [x]\n", "x.yaml")
    root = source.documents[0].root
    plain = find_node(root, ("a",))
    assert replace_scalar(plain, "plain") is None  # type: ignore[arg-type]
    edit = replace_scalar(plain, "a: b")  # type: ignore[arg-type]
    assert edit is not None and apply_edits(source.text, [edit]) == 'a: "a: b"\nb: [x]\n'
    assert replace_scalar(find_node(root, ("b", 0)), "y, z") is not None  # type: ignore[arg-type]


def test_a_pair_sharing_its_line_with_a_sequence_dash_is_not_removed() -> None:
    source = load_text("items:\n- ownerRef: x\n  name: y\n", "x.yaml")
    item = find_node(source.documents[0].root, ("items", 0))
    key = item.pairs[0][0]  # type: ignore[union-attr]
    assert remove_pair(item, key) is None  # type: ignore[arg-type]


def test_fix_titles_are_one_short_line() -> None:
    edit = replace_scalar(find_node(load_text("a: b\n", "x.yaml").documents[0].root, ("a",)), "c")  # type: ignore
    (made,) = fix("replace with (.a\n  // .b)" + " x" * 60, edit)
    assert "\n" not in made.description and len(made.description) == 80
    assert made.description.startswith("replace with (.a // .b) x") and made.description.endswith("\u2026")
    assert fix("title", edit, None) == []


def test_a_fix_in_a_file_of_many_documents_reads_its_own_document_again(monkeypatch) -> None:
    from wmaplint.source import loader

    text = "---\n".join([JOB.replace("specDefinition:", "specDefiniton:")] * 40)
    composed: list[int] = []

    class Parser(loader._Loader):  # type: ignore[misc,name-defined]
        def __init__(self, stream: str) -> None:
            if "batch-job-v1" in stream:  # the linted file, not the tool's own data files read on the way
                composed.append(len(stream))
            super().__init__(stream)

    monkeypatch.setattr(loader, "_Loader", Parser)
    found = [d for d in lint_text(text, "many.yaml") if d.fixes]
    assert len(found) == 40
    assert composed[0] == len(text)  # reading the file
    assert max(composed[1:]) < len(text) / 20  # each fix checks itself on its document alone


def test_a_fix_of_a_value_on_one_line_reads_the_document_only_to_that_line(monkeypatch) -> None:
    from wmaplint.source import loader

    text = JOB.replace(".spec.template}", ".spec.templat}") + "".join(f"# line {i}\n" for i in range(400))
    composed: list[int] = []

    class Parser(loader._Loader):  # type: ignore[misc,name-defined]
        def __init__(self, stream: str) -> None:
            if "batch-job-v1" in stream:
                composed.append(len(stream))
            super().__init__(stream)

    monkeypatch.setattr(loader, "_Loader", Parser)
    (finding,) = [d for d in lint_text(text, "job.yaml") if d.rule == "WM301"]
    assert apply_edits(text, list(finding.fixes[0].edits)) == JOB + text[len(JOB) - 1:]
    assert composed[0] == len(text) and max(composed[1:]) < text.index("# line 0")


EDITED_VALUES = [  # (text, key path, new value)
    ("a:\n  b: .spec.templat  # why\n  c: 1\n", ("a", "b"), ".spec.template"),
    ("a:\n  b: 'x y'\n  c: 1\n", ("a", "b"), "x it's y"),
    ('a:\n  b: "x\\ty"\n  c: 1\n', ("a", "b"), "x\ty z"),
    ("a:\n  b: x\n  c: 1\n", ("a", "b"), "12"),
    ("a:\n  b: x\n  c: 1\n", ("a", "b"), "y: z"),
    ("a:\n  b: x\n  c: 1\n", ("a", "b"), "y #z"),
    ("a:\n  b: x\n  c: 1\n", ("a", "b"), "y\nz"),
    ("a: {b: x,\n  c: 1}\n", ("a", "b"), "xy"),
    ("a:\n  b: x\n   y\n  c: 1\n", ("a", "b"), "x z"),
    ("a:\n  b: x\n  c: 1\n---\nd: *nowhere\n", ("a", "b"), "xy"),
    ("a:\n  - x\n  - y\n", ("a", 0), "xz"),
]


def test_a_value_reads_the_same_whether_its_line_tells_or_the_whole_document(monkeypatch) -> None:
    from wmaplint.source import edits

    def edit_of(text: str, pointer: tuple[str | int, ...], new: str) -> object:
        node = find_node(load_text(text, "x.yaml").documents[0].root, pointer)
        return replace_scalar(node, new)  # type: ignore[arg-type]

    on_its_line = [edit_of(*case) for case in EDITED_VALUES]
    monkeypatch.setattr(edits, "_reads_on_its_line", lambda *args: False)
    assert on_its_line == [edit_of(*case) for case in EDITED_VALUES]
    assert on_its_line[0] is not None


def test_a_key_is_read_with_its_siblings() -> None:
    from wmaplint.source.loader import scalar_reading_at

    assert scalar_reading_at("a: 1\nb: 2\n", 5) == (6, "b", False)
    assert scalar_reading_at("a: 1\nb: 2\n", 5, keys=False) is None
    assert scalar_reading_at("a: 1\nb: 2\n", 8, keys=False) == (9, None, False)  # a value, not a string
