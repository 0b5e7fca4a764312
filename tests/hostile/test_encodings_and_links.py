"""A definition named on the command line is checked whatever Unicode encoding YAML allows it (UTF-8, UTF-16
or UTF-32 with a byte order mark) and whatever its line ends (LF, CR LF, CR only), with the positions of its
UTF-8 twin; and a walk never follows a link out of the repository, nor quotes the lines of its target."""

from __future__ import annotations

import os

import pytest

from wmaplint.rules.examples import job_with

from .helpers import assert_clean, wmaplint

FINDING = job_with("specDefinition:", "specDefiniton:")
ENCODINGS = {
    "utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff", "utf-32-le": b"\xff\xfe\x00\x00",
    "utf-32-be": b"\x00\x00\xfe\xff",
}


def _positions(run) -> list[str]:
    return [line.split(" ", 1)[0].split(":", 1)[1] for line in run.stdout.splitlines() if "WM" in line]


@pytest.fixture
def utf8_positions(tmp_path) -> list[str]:
    (tmp_path / "twin.yaml").write_text(FINDING)
    run = assert_clean(wmaplint("check", "twin.yaml", cwd=tmp_path), 1)
    assert _positions(run)
    return _positions(run)


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
def test_a_definition_with_a_byte_order_mark_is_checked(tmp_path, encoding: str, utf8_positions) -> None:
    (tmp_path / "def.yaml").write_bytes(ENCODINGS[encoding] + FINDING.encode(encoding))
    run = assert_clean(wmaplint("check", "def.yaml", cwd=tmp_path), 1)
    assert "WM112" in run.stdout and _positions(run) == utf8_positions, str(run)
    assert_clean(wmaplint("check", ".", cwd=tmp_path), 1)  # and found by a walk


@pytest.mark.parametrize("ends", ["\r", "\r\n"])
def test_a_definition_with_cr_line_ends_is_checked(tmp_path, ends: str, utf8_positions) -> None:
    (tmp_path / "def.yaml").write_bytes(FINDING.replace("\n", ends).encode())
    run = assert_clean(wmaplint("check", "def.yaml", cwd=tmp_path), 1)
    assert "WM112" in run.stdout and _positions(run) == utf8_positions, str(run)


def test_a_fix_is_not_written_into_another_encoding(tmp_path) -> None:
    data = b"\xff\xfe" + FINDING.encode("utf-16-le")
    (tmp_path / "def.yaml").write_bytes(data)
    run = assert_clean(wmaplint("check", "--fix", "def.yaml", cwd=tmp_path), 1, 2)
    assert "wmaplint: def.yaml: is UTF-16 encoded; not fixed (fixes are written into UTF-8 files only)" \
        in run.error_lines, str(run)
    assert (tmp_path / "def.yaml").read_bytes() == data


def test_a_utf16_file_without_a_kind_stays_skipped(tmp_path) -> None:
    (tmp_path / "other.yaml").write_bytes(b"\xff\xfe" + "a: 1\n".encode("utf-16-le"))
    run = assert_clean(wmaplint("check", "-v", "other.yaml", cwd=tmp_path), 0)
    assert "skipped other.yaml: no definition" in run.stderr


# -- links ----------------------------------------------------------------------------------------------

SECRET = "s3cr3t-token-value-9f2"


@pytest.fixture
def repo(tmp_path):
    """A repository whose tree holds links out of it, to files that declare a kind and hold a secret."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "def.yaml").write_text(FINDING.replace("metadata: {name: batch-job-v1}",
                                                      f"metadata: {{name: batch-job-v1}}\n# {SECRET}"))
    (outside / "broken.yaml").write_text(f"kind: Karta\n{SECRET}: [\n")
    repo = tmp_path / "repo"
    (repo / "defs").mkdir(parents=True)
    (repo / ".git").mkdir()
    (repo / "defs" / "own.yaml").write_text(FINDING)
    os.symlink(outside / "def.yaml", repo / "defs" / "linked.yaml")
    os.symlink(outside / "broken.yaml", repo / "defs" / "broken.yaml")
    os.symlink(repo / "defs" / "own.yaml", repo / "defs" / "inside.yaml")  # inside: followed
    return repo


def test_a_walk_does_not_follow_links_out_of_the_repository(repo) -> None:
    run = assert_clean(wmaplint("check", "-v", "--format", "text", ".", cwd=repo), 1)
    assert SECRET not in run.stdout + run.stderr
    assert "defs/own.yaml" in run.stdout and "defs/inside.yaml" in run.stdout
    assert "linked.yaml" not in run.stdout and "broken.yaml" not in run.stdout
    assert "wmaplint: skipped ./defs/linked.yaml: a symbolic link out of the repository" in run.stderr


def test_a_named_link_out_of_the_repository_is_one_line(repo) -> None:
    for fmt in ("text", "json", "sarif"):
        run = assert_clean(wmaplint("check", "--format", fmt, "defs/broken.yaml", cwd=repo), 2)
        assert SECRET not in run.stdout + run.stderr, str(run)
        assert run.error_lines == ["wmaplint: defs/broken.yaml: a symbolic link out of the repository "
                                   f"(to {repo.parent}/outside/broken.yaml); not read"], str(run)
