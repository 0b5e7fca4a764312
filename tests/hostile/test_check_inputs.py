"""`wmaplint check` on files that are not definitions at all, or definitions built to exhaust the tool."""

from __future__ import annotations

import os

import pytest

from wmaplint.rules.examples import JOB, job_with

from .helpers import JOB_MANIFEST, assert_clean, rules_of, wmaplint


def _alias_bomb(levels: int = 9) -> str:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def test_missing_file_is_one_line(tmp_path) -> None:
    run = assert_clean(wmaplint("check", tmp_path / "nope.yaml"), 2)
    assert "no such file" in run.stderr


def test_several_bad_inputs_give_one_line_each(tmp_path) -> None:
    (tmp_path / "bin.yaml").write_bytes(b"kind: Karta\n\x00\x01binary")
    run = assert_clean(
        wmaplint("check", tmp_path / "a.yaml", tmp_path / "b.yaml", tmp_path / "bin.yaml"), 2, bad_inputs=3
    )
    assert len(run.error_lines) == 3


def test_directory_without_definitions(tmp_path) -> None:
    (tmp_path / "job.yaml").write_text(JOB_MANIFEST)
    (tmp_path / "notes.txt").write_text("not yaml")
    run = assert_clean(wmaplint("check", tmp_path), 0)
    assert run.stdout == run.stderr == ""
    (tmp_path / "empty").mkdir()
    assert "no YAML or JSON files" in assert_clean(wmaplint("check", "-v", tmp_path / "empty"), 0).stderr


def test_directory_named_like_a_yaml_file(tmp_path) -> None:
    (tmp_path / "dir.yaml").mkdir()
    assert_clean(wmaplint("check", tmp_path / "dir.yaml"), 0)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"kind: Karta\n" + b"\x00\x01\x02\x03" * 100, "binary"),
        ("kind: Karta\nspec: caf\xe9\n".encode("latin-1"), "UTF-8"),
        (b"\xef\xbb\xbf" + b"kind: Karta\n\xff", "UTF-8"),
    ],
    ids=["binary", "latin-1", "bom-then-garbage"],
)
def test_unreadable_bytes_are_one_line(tmp_path, content: bytes, message: str) -> None:
    (tmp_path / "x.yaml").write_bytes(content)
    assert message in assert_clean(wmaplint("check", tmp_path / "x.yaml"), 2).stderr


def test_unreadable_bytes_on_stdin() -> None:
    assert "UTF-8" in assert_clean(wmaplint("check", "-", stdin=b"kind: Karta\nx: \xff\xfe\n"), 2).stderr
    assert "binary" in assert_clean(wmaplint("check", "-", stdin=b"\x00" * 64), 2).stderr


@pytest.mark.parametrize(
    "text",
    ["", "\n\n", "---\n---\n", "# only a comment\n", "null\n", "[]\n", "42\n"],
    ids=["empty", "blank", "empty-docs", "comment", "null", "list", "scalar"],
)
def test_empty_and_trivial_files(tmp_path, text: str) -> None:
    (tmp_path / "x.yaml").write_text(text)
    run = assert_clean(wmaplint("check", tmp_path / "x.yaml"), 0)
    assert run.stdout == run.stderr == ""


def test_empty_stdin() -> None:
    assert_clean(wmaplint("check", "-", stdin=b""), 0)


def test_alias_bomb_is_a_positioned_diagnostic(tmp_path) -> None:
    (tmp_path / "bomb.yaml").write_text("kind: Karta\n" + _alias_bomb())
    run = assert_clean(wmaplint("check", tmp_path / "bomb.yaml", limit_memory=True), 1)
    assert "WM103" in rules_of(run)


def test_alias_bomb_inside_a_definition(tmp_path) -> None:
    text = _alias_bomb() + JOB.replace(
        "metadata: {name: batch-job-v1}", "metadata: {name: batch-job-v1, x: *a9}"
    )
    (tmp_path / "def.yaml").write_text(text)
    run = assert_clean(wmaplint("check", tmp_path / "def.yaml", "--format", "json", limit_memory=True), 1)
    assert '"WM103"' in run.stdout


@pytest.mark.parametrize(
    "nested",
    ["[" * 10_000 + "]" * 10_000, "{a: " * 10_000 + "1" + "}" * 10_000, "- " * 10_000 + "x"],
    ids=["flow-sequences", "flow-mappings", "block-sequences"],
)
def test_ten_thousand_levels_of_yaml(tmp_path, nested: str) -> None:
    (tmp_path / "deep.yaml").write_text(
        job_with("metadata: {name: batch-job-v1}", "metadata: {name: batch-job-v1}")
        + "extra: "
        + nested
        + "\n"
    )
    run = assert_clean(wmaplint("check", tmp_path / "deep.yaml"), 1)
    assert "WM101" in rules_of(run)


def test_deep_json_on_stdin() -> None:
    deep = '{"kind": "Karta", "a": ' + '{"a": ' * 10_000 + "1" + "}" * 10_001
    run = assert_clean(wmaplint("check", "-", stdin=deep), 1)
    assert "WM101" in rules_of(run)


def test_fifty_megabyte_file(tmp_path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("w") as out:
        out.write(JOB)
        line = "# " + "y" * 1022 + "\n"
        out.writelines(line for _ in range(50 * 1024))
    run = assert_clean(wmaplint("check", path, limit_memory=True), 2)
    assert "MB" in run.stderr


def test_fifty_megabytes_on_stdin() -> None:
    data = JOB.encode() + b"# " + b"z" * (50 * 1024 * 1024) + b"\n"
    assert_clean(wmaplint("check", "-", stdin=data, limit_memory=True), 2)


def test_megabyte_strings_in_a_definition(tmp_path) -> None:
    big = "x" * 2_000_000
    text = job_with("'.spec.parallelism // 1'", f"'.spec.parallelism // \"{big}\"'")
    text = text.replace(
        "metadata: {name: batch-job-v1}", f"metadata: {{name: batch-job-v1, annotations: {{a: {big}}}}}"
    )
    (tmp_path / "def.yaml").write_text(text)
    assert_clean(wmaplint("check", tmp_path / "def.yaml", limit_memory=True), 0, 1)


def test_megabyte_key_is_a_yaml_error(tmp_path) -> None:
    (tmp_path / "def.yaml").write_text(JOB + "  " + "k" * 2_000_000 + ": 1\n")
    assert "WM101" in rules_of(assert_clean(wmaplint("check", tmp_path / "def.yaml", limit_memory=True), 1))


def test_many_documents_in_one_file(tmp_path) -> None:
    (tmp_path / "many.yaml").write_text("---\n".join([JOB] * 300))
    assert_clean(wmaplint("check", tmp_path / "many.yaml", "--format", "json"), 0, 1)


@pytest.mark.parametrize(
    "expression",
    [
        "(" * 10_000 + ".spec.parallelism" + ")" * 10_000,
        "[" * 10_000 + "1" + "]" * 10_000,
        ".a | " * 10_000 + "1",
        "1 + " * 10_000 + "1",
        "-" * 10_000 + "1",
        "if true then " * 3_000 + "1" + " else 2 end" * 3_000,
        "{a: " * 5_000 + "1" + "}" * 5_000,
        '"' + "\\(" * 3_000 + "1" + ")" * 3_000 + '"',
    ],
    ids=["parens", "arrays", "pipes", "sums", "negations", "ifs", "objects", "interpolations"],
)
def test_deeply_nested_jq_is_a_syntax_finding(tmp_path, expression: str) -> None:
    (tmp_path / "def.yaml").write_text(job_with("'.spec.parallelism // 1'", "'" + expression + "'"))
    run = assert_clean(wmaplint("check", tmp_path / "def.yaml"), 1)
    assert "WM201" in rules_of(run)


@pytest.mark.parametrize(
    "expression",
    ['"\\u12" | .spec.parallelism', '"\\uZZZZ"', '"\\ud800" | length', '"\\u', '"\\', '"\\q"', '"\\u00"+"x"'],
    ids=[
        "short",
        "not-hex",
        "lone-surrogate",
        "unterminated-u",
        "unterminated",
        "unknown-escape",
        "short-then-more",
    ],
)
def test_broken_unicode_escapes_in_jq(tmp_path, expression: str) -> None:
    quoted = expression.replace("'", "''")
    (tmp_path / "def.yaml").write_text(job_with("'.spec.parallelism // 1'", f"'{quoted}'"))
    assert_clean(wmaplint("check", tmp_path / "def.yaml"), 0, 1)


def test_garbage_in_every_definition_field(tmp_path) -> None:
    text = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: [1, 2]
spec:
  structureDefinition:
    rootComponent:
      name: {a: b}
      kind: [group, version]
      specDefinition: {podTemplateSpecPath: 7}
      scaleDefinition: {replicasPath: [".a"]}
      statusDefinition:
        conditionsDefinition: "no"
        statusMappings: {running: 5, "": [], completed: [{byConditions: 3}], failed: [{byExpression: 1}]}
    childComponents: {a: 1}
  optimizationInstructions: {gangScheduling: {podGroups: [7, {members: x}]}}
"""
    (tmp_path / "def.yaml").write_text(text)
    assert_clean(wmaplint("check", tmp_path / "def.yaml"), 1)


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_every_format_survives_a_broken_file(tmp_path, fmt: str) -> None:
    (tmp_path / "def.yaml").write_bytes(JOB.encode() + b'  bad: [\n\t\x7f\xc2\xa0: "\\\n')
    assert_clean(wmaplint("check", tmp_path / "def.yaml", "--format", fmt), 1)


def test_fix_on_a_broken_file_leaves_it_alone(tmp_path) -> None:
    path = tmp_path / "def.yaml"
    original = job_with("specDefinition:", "specDefiniton:") + "oops: [\n"
    path.write_text(original)
    assert_clean(wmaplint("check", "--fix", path), 1)
    assert path.read_text() == original


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_file_name_that_is_not_utf8(tmp_path, fmt: str) -> None:
    name = os.fsdecode(b"bad-\xff.yaml")
    (tmp_path / name).write_text(job_with("specDefinition:", "specDefiniton:"))
    run = assert_clean(wmaplint("check", "--format", fmt, ".", cwd=tmp_path), 1)
    if fmt == "sarif":
        assert '"uri": "bad-%FF.yaml"' in run.stdout  # the name's own bytes, percent-encoded
