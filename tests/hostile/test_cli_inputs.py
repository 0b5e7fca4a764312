"""Bad configuration files, unknown rules and formats, and misused commands: one line and exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from wmaplint.rules.examples import JOB

from .helpers import assert_clean, wmaplint

ALIAS_BOMB = (
    "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
    + "".join(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 9))
    + "select: *a8\n"
)


@pytest.mark.parametrize(
    ("name", "content"),
    [
        (".wmaplint.yaml", "select: [WM999999, nope]\n"),
        (".wmaplint.yaml", "select: [\n"),
        (".wmaplint.yaml", "[" * 10_000 + "]" * 10_000),
        (".wmaplint.yaml", "{a: " * 10_000 + "1" + "}" * 10_000),
        (".wmaplint.yaml", ALIAS_BOMB),
        (".wmaplint.yaml", b"\xff\xfe garbage"),
        (".wmaplint.yaml", "- just\n- a list\n"),
        (".wmaplint.yaml", "severity: {WM101: loud}\n"),
        (".wmaplint.yaml", "fail-level: 7\n"),
        (".wmaplint.yaml", "exclude: {a: b}\n"),
        ("pyproject.toml", "[tool.wmaplint\nx=\n"),
        ("pyproject.toml", "[tool.wmaplint]\nselect = " + "[" * 10_000 + "]" * 10_000 + "\n"),
        ("pyproject.toml", "[tool.wmaplint]\nseverity = {WM101 = 5}\n"),
        ("pyproject.toml", "[tool.wmaplint]\nunknown-key = 1\n"),
        ("pyproject.toml", b"[tool.wmaplint]\nselect = ['\xff']\n"),
    ],
    ids=[
        "unknown-rule",
        "broken-yaml",
        "deep-yaml",
        "deep-yaml-mappings",
        "alias-bomb",
        "not-utf8",
        "list",
        "bad-severity",
        "bad-fail-level",
        "bad-exclude",
        "broken-toml",
        "deep-toml",
        "toml-severity",
        "unknown-key",
        "toml-not-utf8",
    ],
)
def test_bad_configuration_files(tmp_path, name: str, content: str | bytes) -> None:
    (tmp_path / name).write_bytes(content if isinstance(content, bytes) else content.encode())
    (tmp_path / "def.yaml").write_text(JOB)
    run = assert_clean(wmaplint("check", tmp_path / "def.yaml", limit_memory=True), 2)
    assert name in run.stderr
    assert_clean(wmaplint("check", "--config", tmp_path / name, "-", stdin=JOB, limit_memory=True), 2)


@pytest.mark.parametrize("config", ["nope.yaml", "."], ids=["missing", "directory"])
def test_unreadable_explicit_configuration(tmp_path, config: str) -> None:
    (tmp_path / "def.yaml").write_text(JOB)
    assert_clean(wmaplint("check", "--config", tmp_path / config, tmp_path / "def.yaml"), 2)


def test_rule_pack_garbage_is_reported_not_raised(tmp_path) -> None:
    (tmp_path / ".wmaplint.yaml").write_text("rule-packs: [pack.yaml, missing.yaml, bin.yaml]\n")
    (tmp_path / "pack.yaml").write_text('rules: [1, {id: X, given: "$[", assert: "((("}]\n')
    (tmp_path / "bin.yaml").write_bytes(b"\x00\xff")
    (tmp_path / "def.yaml").write_text(JOB)
    assert_clean(wmaplint("check", tmp_path / "def.yaml"), 1, 2)


@pytest.mark.parametrize(
    "args",
    [
        ("check", "{def}", "--format", "xml"),
        ("check", "{def}", "--select", "nope"),
        ("check", "{def}", "--ignore", "WM1,,nope"),
        ("check", "{def}", "--fail-level", "fatal"),
        ("check", "{def}", "--jobs", "many"),
        ("check",),
        ("tree",),
        ("tree", "{def}", "--format", "png"),
        ("explain",),
        ("explain", "WM000"),
        ("explain", ""),
        ("explain", "x" * 10_000),
        ("rules", "--format", "yaml"),
        ("schemas", "add"),
        ("no-such-command",),
        ("check", "--no-such-flag", "{def}"),
    ],
    ids=[
        "format",
        "select",
        "ignore",
        "fail-level",
        "jobs",
        "check-no-paths",
        "tree-no-manifests",
        "tree-format",
        "explain-nothing",
        "explain-unknown",
        "explain-empty",
        "explain-huge",
        "rules-format",
        "schemas-add-nothing",
        "unknown-command",
        "unknown-flag",
    ],
)
def test_misuse_is_one_line_and_exit_two(tmp_path, args: tuple[str, ...]) -> None:
    definition = tmp_path / "def.yaml"
    definition.write_text(JOB)
    run = assert_clean(wmaplint(*(a.replace("{def}", str(definition)) for a in args)), 2)
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr


def test_rules_and_explain_every_rule_work() -> None:
    run = assert_clean(wmaplint("rules", "--format", "json"), 0)
    assert '"WM101"' in run.stdout
    assert "yaml-syntax" in assert_clean(wmaplint("explain", "WM101"), 0).stdout


def test_directory_with_a_hostile_mix(tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_text(JOB)
    (tmp_path / "bin.yaml").write_bytes(b"\x00\x01")
    (tmp_path / "latin.yaml").write_bytes(b"kind: Karta\nx: \xe9\n")
    (tmp_path / "deep.yaml").write_text("kind: Karta\nx: " + "[" * 10_000)
    (tmp_path / "empty.yaml").write_text("")
    run = assert_clean(wmaplint("check", tmp_path, "--format", "sarif"), 2, bad_inputs=1)
    assert len(run.error_lines) == 1  # bin.yaml declares no kind wmaplint reads: skipped


def test_a_huge_value_in_the_configuration_is_quoted_short(tmp_path) -> None:
    (tmp_path / ".wmaplint.yaml").write_text("select: [" + "x" * 10_000 + "]\n")
    (tmp_path / "def.yaml").write_text(JOB)
    run = assert_clean(wmaplint("check", tmp_path / "def.yaml"), 2)
    assert "unknown rule 'xxx" in run.stderr and len(run.stderr) < 400
