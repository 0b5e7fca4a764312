"""YAML whose every byte or two is a node (`{?,?,?,...}`: empty explicit keys, each a repeat of the one
before) is read under the file's limits before a tree of it exists, and a file of repeated keys lists a
hundred of them: each shape is run as the fuzz runner runs a case (its own process, address space capped,
peak memory read from the kernel) and held to the promise (20 s, 500 MB, exit 0/1/2, no traceback).

Unbounded, 1 MiB of empty keys as a definition made `check` run for minutes at 1.5-3.9 GB and print 524,153
errors; as a manifest `tree` took 1.1 GB, as a recording `test` 968 MB; three such documents in one file
ended in a MemoryError in the reader."""

from __future__ import annotations

from pathlib import Path

import pytest

from wmaplint.rules.examples import JOB
from wmaplint.source.loader import MAX_FILE_NODES, MAX_LISTED_DUPLICATES, load_text

from .fuzz import Outcome, environment, run_case
from .generators import DEFINITION_HEAD, MANIFEST_HEAD, RECORDING_HEAD, Case, empty_keys

MIB = 1 << 20

def _run(tmp_path: Path, files: dict[str, str], *args: str) -> Outcome:
    outcome = run_case(Case("storms", args[0], dict(files), list(args)), tmp_path, environment(tmp_path))
    assert outcome.ok, str(outcome)
    return outcome


def test_a_definition_of_a_mebibyte_of_empty_keys(tmp_path: Path) -> None:
    outcome = _run(tmp_path, {"def.yaml": DEFINITION_HEAD + empty_keys(MIB)}, "check", "def.yaml")
    assert outcome.returncode == 2 and not outcome.stdout.strip(), str(outcome)
    assert outcome.stderr.strip().splitlines() == [
        f"wmaplint: def.yaml: more than {MAX_FILE_NODES:,} YAML nodes (at line 4); not read"], str(outcome)


def test_a_manifest_of_a_mebibyte_of_empty_keys(tmp_path: Path) -> None:
    outcome = _run(tmp_path, {"m.yaml": MANIFEST_HEAD + empty_keys(MIB - 100)}, "tree", "m.yaml")
    assert outcome.returncode == 2 and "WM102" not in outcome.stdout + outcome.stderr, str(outcome)
    assert f"m.yaml: more than {MAX_FILE_NODES:,} YAML nodes" in outcome.stderr, str(outcome)


def test_three_mebibyte_documents_of_empty_keys_in_one_file(tmp_path: Path) -> None:
    three = "---\n".join(MANIFEST_HEAD + empty_keys(MIB - 100) for _ in range(3))
    outcome = _run(tmp_path, {"m.yaml": three}, "tree", "m.yaml")
    assert outcome.returncode == 2 and "MemoryError" not in outcome.stderr, str(outcome)


def test_a_recording_of_a_mebibyte_of_empty_keys(tmp_path: Path) -> None:
    recording = RECORDING_HEAD + empty_keys(MIB - len(RECORDING_HEAD) - 2)
    assert len(recording) <= MIB
    outcome = _run(tmp_path, {"r.yaml": recording}, "test", "r.yaml")
    assert outcome.returncode == 2 and "more than 500,000 YAML nodes" in outcome.stdout, str(outcome)


def test_a_storm_of_duplicate_keys_lists_a_hundred(tmp_path: Path) -> None:
    # 300 kB, under the node limit: 150,000 repeats of one key
    text = JOB.replace("metadata: {name: batch-job-v1}", "metadata: {name: batch-job-v1, "
                       + "a: 1, " * 150_000 + "b: 2}")
    outcome = _run(tmp_path, {"def.yaml": text}, "check", "def.yaml")
    lines = [line for line in outcome.stdout.splitlines() if "WM102" in line]
    assert len(lines) == MAX_LISTED_DUPLICATES + 1, str(outcome)
    assert "149,899 more duplicate keys from here on, not listed one by one" in lines[-1], lines[-1]


@pytest.mark.parametrize("shape", ["empty keys", "documents"])
def test_the_reader_stops_at_the_files_limits(shape: str) -> None:
    text = empty_keys(MIB) if shape == "empty keys" else "a: 1\n---\n" * 6_000
    source = load_text(text, "f.yaml")
    assert source.refused is not None and "not read" in source.refused
    assert ("500,000 YAML nodes" if shape == "empty keys" else "5,000 YAML documents") in source.refused


def test_a_flood_of_one_rule_lists_a_thousand_and_says_the_rest() -> None:
    from wmaplint.engine import MAX_FINDINGS_PER_RULE, lint_text

    text = JOB.replace("spec:\n", "spec:\n" + "".join(f"  x{i}: 1\n" for i in range(1200)), 1)
    found = [d for d in lint_text(text, "def.yaml") if d.rule == "WM112"]
    assert len(found) == MAX_FINDINGS_PER_RULE + 1
    assert found[-1].message == "200 more findings of this rule in this file, not listed one by one"


def test_a_configuration_of_empty_keys_is_one_line(tmp_path: Path) -> None:
    # composed whole before its 30,000 values were counted: 3 s and 350 MB for a megabyte
    outcome = _run(tmp_path, {".wmaplint.yaml": empty_keys(MIB - 4), "def.yaml": JOB}, "check", "def.yaml")
    [line] = outcome.stderr.strip().splitlines()
    assert outcome.returncode == 2 and line.endswith(
        "/.wmaplint.yaml: more than 30,000 YAML nodes (at line 1); not read (configuration)"), str(outcome)
