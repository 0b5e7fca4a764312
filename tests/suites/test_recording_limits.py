"""A recording `wmaplint test` finds in a repository is read under a size limit, as a suite is: a planted
recording of megabytes (or of a million values) is one line and exit 2, never minutes of parsing."""

import time
from pathlib import Path

import pytest

from wmaplint.suites.recording import read_recording
from wmaplint.suites.suite import SuiteError

from .test_suites import run_cli

ROOT = Path(__file__).resolve().parents[2]
POD = ROOT / "catalog" / "tests" / "recordings" / "core-pod-v1" / "completed.yaml"

HEAD = """\
events:
- kind: STATE
  object: {apiVersion: v1, kind: Pod, metadata: {name: p}}
  state: Pending
"""


def _events_repeated(size: int) -> str:
    """A recording of real Pod events, its events repeated up to ``size`` bytes (the shape a long recording
    of a real flow has)."""
    lines = POD.read_text().splitlines(keepends=True)
    start = lines.index("events:\n") + 1
    end = next(at for at in range(start, len(lines)) if not lines[at].startswith(("-", " ")))
    events, tail = "".join(lines[start:end]), "".join(lines[end:])
    out = "events:\n"
    while len(out) + len(events) + len(tail) <= size:
        out += events
    return out + tail


def test_a_planted_recording_of_two_mebibytes_is_one_line_and_exit_2(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    planted = repo / "recording.yaml"
    planted.write_text(_events_repeated(2 << 20))
    start = time.perf_counter()
    result = run_cli(str(repo))
    assert time.perf_counter() - start < 2.0
    assert result.exit_code == 2, result.output
    errors = [line for line in result.stdout.splitlines() if line.startswith("ERROR")]
    said = "the recording is 2.0 MiB, over the 1 MiB a recording may be; not run"
    assert errors == [f"ERROR {planted}: {said}"]


def test_a_recording_of_a_million_values_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "values.yaml"
    path.write_text(HEAD + "padding: [" + "1," * 1_000_000 + "]\n")
    start = time.perf_counter()
    with pytest.raises(SuiteError) as raised:
        read_recording(path)
    assert time.perf_counter() - start < 0.5  # parsing it took 16 s and 710 MB
    assert str(raised.value) == "the recording is 1.9 MiB, over the 1 MiB a recording may be; not run"


def test_an_alias_bomb_under_the_size_limit_is_refused_by_the_readers_alias_limit(tmp_path):
    bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 9)
    )
    path = tmp_path / "bomb.yaml"
    path.write_text(HEAD + bomb)
    with pytest.raises(SuiteError) as raised:
        read_recording(path)
    assert str(raised.value).startswith("aliases expand this document beyond 100000 nodes")


def test_a_recording_just_under_the_limit_is_read_whole(tmp_path):
    path = tmp_path / "long.yaml"
    path.write_text(_events_repeated((1 << 20) - 4096))
    loaded = read_recording(path)
    per_copy = POD.read_text().count("- kind: STATE")
    assert len([e for e in loaded.value["events"] if e["kind"] == "STATE"]) % per_copy == 0
    assert len(loaded.value["events"]) > 100


def test_the_limit_is_one_mebibyte_of_utf8_not_of_characters(tmp_path):
    # 600,000 two-byte characters: 1.1 MiB of UTF-8 in 0.6 M characters
    path = tmp_path / "wide.yaml"
    path.write_text(HEAD + "note: " + "é" * 600_000 + "\n", encoding="utf-8")
    with pytest.raises(SuiteError, match=r"^the recording is 1\.1 MiB, over the 1 MiB"):
        read_recording(path)
