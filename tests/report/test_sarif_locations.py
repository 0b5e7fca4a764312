"""SARIF that code scanning can place: repository-relative paths from any working directory, the tool's own
files under roots of their own, no machine path, every rule linked to its documentation."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from github_sarif_rules import problems
from integrations.workspace import job_definition, new_repository, wmaplint
from jsonschema import Draft4Validator
from report_samples import DEFINITION, DEFINITION_PATH, unknown_field

from wmaplint.diagnostics import (
    BUNDLED_SCHEMAS,
    CACHED_SCHEMAS,
    RULES,
    SHIPPED_PACKS,
    CheckOutcome,
    RelatedLocation,
    Span,
)
from wmaplint.report.sarif import render_sarif
from wmaplint.report.sarif_rules import help_markdown, markdown_prose
from wmaplint.rule_reference import rule_anchor

REPO = Path(__file__).resolve().parents[2]

# A definition as an author would commit it: the jq in replicasPath calls a function gojq does not have, and
# its name breaks the shipped pack's naming convention (KBP003).
BROKEN = job_definition(name="my-job", replicas=".spec.parallelism | nosuchfunc")


def _run(log: dict) -> dict:
    return log["runs"][0]


def _git_repository(tmp_path: Path) -> Path:
    repository = new_repository(tmp_path / "checkout")
    (repository / "defs" / "sub").mkdir(parents=True)
    (repository / "defs" / "sub" / "x.yaml").write_text(BROKEN, encoding="utf-8")
    return repository


def _check(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return wmaplint(cwd, "check", *args)


def _artifact_locations(value: object) -> list[dict]:
    found = []
    if isinstance(value, dict):
        if "artifactLocation" in value:
            found.append(value["artifactLocation"])
        for item in value.values():
            found += _artifact_locations(item)
    elif isinstance(value, list):
        for item in value:
            found += _artifact_locations(item)
    return found


def test_run_in_a_subdirectory_uploads_repository_paths(
    tmp_path: Path, sarif_validator: Draft4Validator
) -> None:
    repository = _git_repository(tmp_path)
    done = _check(repository / "defs", "sub/x.yaml", "--format", "sarif")
    assert done.returncode == 1, done.stderr
    log = json.loads(done.stdout)
    assert not list(sarif_validator.iter_errors(log))
    assert problems(log) == []
    run = _run(log)
    assert run["originalUriBaseIds"]["%SRCROOT%"] == {"uri": repository.resolve().as_uri() + "/"}
    primaries = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]}
    assert primaries == {"defs/sub/x.yaml"}
    assert {r["ruleId"] for r in run["results"]} >= {"WM202", "KBP003"}
    # every location is relative: to the repository, or to the shipped rule packs (the KBP003 assertion)
    locations = _artifact_locations(run["results"])
    assert {(a["uriBaseId"], a["uri"]) for a in locations} == {
        ("%SRCROOT%", "defs/sub/x.yaml"),
        (SHIPPED_PACKS, "karta-best-practices.yaml"),
    }
    assert "uri" not in run["originalUriBaseIds"][SHIPPED_PACKS]
    # nothing names where wmaplint is installed
    assert str(Path(sys.prefix)) not in done.stdout and str(REPO) not in done.stdout


def test_github_annotations_use_the_same_repository_paths(tmp_path: Path) -> None:
    repository = _git_repository(tmp_path)
    done = _check(repository / "defs", "sub/x.yaml", "--format", "github")
    assert done.returncode == 1, done.stderr
    assert {re.search(r"file=([^,]*)", line)[1] for line in done.stdout.splitlines()} == {"defs/sub/x.yaml"}


def test_outside_a_git_work_tree_the_working_directory_is_the_root(tmp_path: Path) -> None:
    work = tmp_path / "plain" / "defs"
    work.mkdir(parents=True)
    (work / "x.yaml").write_text(BROKEN, encoding="utf-8")
    done = _check(work, "x.yaml", "--format", "sarif")
    if done.returncode == 1 and '"defs/x.yaml"' in done.stdout:
        pytest.skip("the temporary directory lies inside a git work tree")
    assert done.returncode == 1, done.stderr
    run = _run(json.loads(done.stdout))
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == work.resolve().as_uri() + "/"
    assert run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "x.yaml"


@pytest.mark.parametrize(
    ("base", "label"),
    [
        (BUNDLED_SCHEMAS, "bundled schemas"),
        (CACHED_SCHEMAS, "schema cache"),
        (SHIPPED_PACKS, "shipped rule packs"),
    ],
)
def test_tool_roots_get_their_own_base_and_no_machine_path(
    base: str, label: str, sarif_validator: Draft4Validator
) -> None:
    diagnostic = unknown_field()
    crd = "jobset.x-k8s.io/jobset_v1alpha2.yaml"
    diagnostic.related = (RelatedLocation(crd, Span(223, 15, 223, 29), "declared here", base),)
    log = json.loads(
        render_sarif(CheckOutcome([diagnostic], {DEFINITION_PATH: DEFINITION}, 1), tool_version="0.1.0",
                     cwd=REPO)
    )
    assert not list(sarif_validator.iter_errors(log))
    assert problems(log) == []
    run = _run(log)
    result = run["results"][0]
    assert result["relatedLocations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "jobset.x-k8s.io/jobset_v1alpha2.yaml",
        "uriBaseId": base,
    }
    assert run["originalUriBaseIds"][base] == {
        "description": {"text": f"wmaplint's {label} (not part of the repository)"}
    }
    # code scanning would look for the file in the repository, so the message names it in words, unlinked
    assert result["message"]["text"].endswith(
        f"(see declared here (jobset.x-k8s.io/jobset_v1alpha2.yaml:223:15 in the {label}))"
    )


def test_a_tool_root_location_with_an_absolute_path_is_only_named(tmp_path: Path) -> None:
    diagnostic = unknown_field()
    diagnostic.related = (RelatedLocation(str(tmp_path / "x.yaml"), None, "declared here", CACHED_SCHEMAS),)
    log = json.loads(
        render_sarif(CheckOutcome([diagnostic], {DEFINITION_PATH: DEFINITION}, 1), tool_version="0.1.0",
                     cwd=REPO)
    )
    assert "relatedLocations" not in _run(log)["results"][0]
    assert problems(log) == []


def test_every_rule_links_to_its_section_of_the_rules_doc() -> None:
    from wmaplint.cli import _load_rules

    _load_rules()
    sarif = render_sarif(CheckOutcome(), tool_version="0.1.0", cwd=REPO)
    rules = {r["id"]: r for r in _run(json.loads(sarif))["tool"]["driver"]["rules"]}
    headings = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    # GitHub's anchor for "## WM301 unknown-schema-field" is "wm301-unknown-schema-field"
    anchors = {
        re.sub(r"[^a-z0-9 _-]", "", line[3:].strip().lower()).replace(" ", "-")
        for line in headings.splitlines()
        if line.startswith("## ")
    }
    for rule_id, descriptor in rules.items():
        if rule_id.startswith("WM8"):  # the reporter tests' own rules are not documented
            continue
        expected = f"https://github.com/wmaplint/wmaplint/blob/main/docs/rules.md#{rule_anchor(RULES[rule_id])}"
        assert descriptor["helpUri"] == expected
        assert rule_anchor(RULES[rule_id]) in anchors


def test_the_repository_url_is_the_one_of_the_project() -> None:
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert 'Repository = "https://github.com/wmaplint/wmaplint"' in text


def test_placeholders_survive_githubs_markdown_renderer() -> None:
    assert markdown_prose("named <group>-<kind>, see `<kind>` and ``a `<b>` c``") == (
        "named \\<group>-\\<kind>, see `<kind>` and ``a `<b>` c``"
    )
    rule = RULES["WM801"]
    assert "\\<" not in help_markdown(rule)


def test_shipped_pack_rule_help_keeps_its_placeholders(tmp_path: Path) -> None:
    repository = _git_repository(tmp_path)
    done = _check(repository, "defs/sub/x.yaml", "--format", "sarif")
    rules = {r["id"]: r for r in _run(json.loads(done.stdout))["tool"]["driver"]["rules"]}
    kbp003 = rules["KBP003"]
    assert "\\<group-with-dashes|core>-\\<kind>-\\<version>" in kbp003["help"]["markdown"]
    assert kbp003["helpUri"] == "https://github.com/wmaplint/wmaplint/blob/main/docs/rule-packs.md#shipped-pack"
    assert "## Shipped pack" in (REPO / "docs" / "rule-packs.md").read_text(encoding="utf-8")


def test_findings_in_another_checkout_are_kept_under_a_base_of_their_own(
    tmp_path: Path, sarif_validator: Draft4Validator
) -> None:
    # `wmaplint check --format sarif ../other-repo/defs/` from one checkout: the text report has the finding,
    # and so must the log (it once held zero results, which code scanning shows as a clean run)
    here = new_repository(tmp_path / "here")
    other = new_repository(tmp_path / "other-repo")
    (other / "defs").mkdir()
    (other / "defs" / "x.yaml").write_text(BROKEN, encoding="utf-8")
    text = _check(here, "../other-repo/defs/")
    done = _check(here, "--format", "sarif", "../other-repo/defs/")
    assert text.returncode == done.returncode == 1, done.stderr
    log = json.loads(done.stdout)
    assert not list(sarif_validator.iter_errors(log))
    assert problems(log) == []
    run = _run(log)
    assert text.stdout.endswith("1 error, 0 warnings, 1 info in 1 file\n")
    assert sorted(r["level"] for r in run["results"]) == ["error", "note"]
    artifacts = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r["locations"][0][
        "physicalLocation"]["artifactLocation"]["uriBaseId"] for r in run["results"]}
    assert artifacts == {"defs/x.yaml": "OUTSIDE1"}
    assert run["originalUriBaseIds"]["OUTSIDE1"]["uri"] == other.resolve().as_uri() + "/"
    assert "toolExecutionNotifications" not in run["invocations"][0]
