"""`test --update` rewrites only the expect blocks of the failing cases: every other byte of the suite, its
comments, indentation, quoting and blank lines, stays as written."""

import shutil
from pathlib import Path

import yaml

from wmaplint.suites.runner import run_suites

from .test_suites import run_cli

FIXTURES = Path(__file__).resolve().parents[1] / "resolve" / "fixtures"

# written the way people write suites: four-space indentation, indented lists, quoted strings, comments
SUITE = """\
# The JobSet worked example.
definition: "jobset.karta.yaml"    # the definition under test

cases:
    # the case that pins the example
    -   name: 'leader and two workers'
        manifest: jobset-leader-workers.yaml
        expect:
            # pods and GPUs, as a platform counts them
            totals: {pods: 4, gpus: 12}
            status: Running

    -   name: status only
        manifest: jobset-leader-workers.yaml   # same manifest
        expect: {status: Running}

    -   name: no expectation yet
        manifest: jobset-with-colour.yaml   # a field its CRD does not have: a finding
# trailing comment
"""


def test_update_rewrites_only_the_failing_expect_block(tmp_path):
    shutil.copy(FIXTURES / "jobset.karta.yaml", tmp_path)
    shutil.copy(FIXTURES / "jobset-leader-workers.yaml", tmp_path)
    manifest = (FIXTURES / "jobset-leader-workers.yaml").read_text()
    coloured = manifest.replace("\nspec:\n", "\nspec:\n  colour: blue\n", 1)
    (tmp_path / "jobset-with-colour.yaml").write_text(coloured)
    path = tmp_path / "jobset.test.yaml"
    path.write_text(SUITE)
    result = run_cli("--update", str(path))
    assert result.exit_code == 0, result.output
    text = path.read_text()
    before, after = SUITE.splitlines(), text.splitlines()
    # the first case's block is rewritten in place at its indentation; everything before and after is kept
    head = before[: before.index("        expect:") + 1]
    assert after[: len(head)] == head
    second = before.index("    -   name: status only")
    tail = before[second:]
    start = after.index("    -   name: status only")
    assert after[start:start + 3] == tail[:3]  # a passing case is not touched, nor the blank line before it
    assert after[-1] == "# trailing comment"
    assert after[start - 1] == ""
    first_block = after[len(head):start - 1]
    assert first_block and all(line.startswith("            ") for line in first_block)
    assert "            totals: {pods: 3, gpus: 12}" in first_block
    # the case without an expectation gets one, below its last key, at its keys' indentation
    third = after.index("    -   name: no expectation yet")
    assert after[third + 1].endswith("# a field its CRD does not have: a finding")
    assert after[third + 2] == "        expect:"
    assert after[third + 3].startswith("            totals: ")
    assert "                replicatedjob: {leader: 1, workers: 2}" in after  # the suite's step of four
    data = yaml.safe_load(text)
    assert data["cases"][0]["expect"]["totals"] == {"pods": 3, "gpus": 12}
    assert data["cases"][1]["expect"] == {"status": "Running"}
    assert data["cases"][2]["expect"]["findings"] == ["WM607"]
    assert run_suites([path])[0].passed
