"""SARIF: valid against the official 2.1.0 schema and complete for GitHub code scanning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from github_sarif_rules import problems
from jsonschema import Draft4Validator
from report_samples import (
    CRD_PATH,
    DEFINITION,
    DEFINITION_PATH,
    jobset_report,
    missing_status,
    scale_hint,
    unknown_field,
)

from wmaplint import rules
from wmaplint.diagnostics import RULES, CheckOutcome, Diagnostic, Fix, RelatedLocation, Severity, Span
from wmaplint.report import UnknownFormatError, render
from wmaplint.report.fingerprint import line_hashes
from wmaplint.report.sarif import MAX_RELATED, render_sarif, sarif_log

REPO = Path(__file__).resolve().parents[2]


def _log(report: CheckOutcome, **options: object) -> dict:
    options.setdefault("cwd", REPO)
    return json.loads(render_sarif(report, tool_version="0.1.0", **options))  # type: ignore[arg-type]


def _assert_valid(log: dict, validator: Draft4Validator, *, require_line_hash: bool = True) -> None:
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]
    assert problems(log, require_line_hash=require_line_hash) == []


def _run(log: dict) -> dict:
    return log["runs"][0]


def test_full_report_is_schema_valid_and_github_complete(sarif_validator: Draft4Validator) -> None:
    _assert_valid(_log(jobset_report()), sarif_validator)


def test_empty_report_still_has_results_array(sarif_validator: Draft4Validator) -> None:
    log = _log(CheckOutcome(files_checked=2))
    _assert_valid(log, sarif_validator)
    assert _run(log)["results"] == []
    assert len(log["runs"]) == 1


def test_every_registered_rule_is_described_in_id_order() -> None:
    rules = _run(_log(CheckOutcome()))["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == sorted(RULES)
    unknown = next(rule for rule in rules if rule["id"] == "WM801")
    assert unknown["name"] == "test-unknown-field"
    assert unknown["shortDescription"]["text"] == RULES["WM801"].summary
    assert RULES["WM801"].why in unknown["fullDescription"]["text"]
    assert unknown["defaultConfiguration"] == {"level": "error"}
    assert unknown["properties"]["precision"] == "high"
    assert unknown["properties"]["problem.severity"] == "error"
    # the 8xx range has no area tag; the rule's own tags follow
    assert unknown["properties"]["tags"] == ["correctness", "jq"]
    markdown = unknown["help"]["markdown"]
    assert "```yaml\nspec:\n  path: .spec.replicatedJob\n```" in markdown
    assert "### How to fix" in markdown and RULES["WM801"].fix in markdown
    assert ".spec.replicatedJobs" in unknown["help"]["text"]


def test_info_rules_are_notes_and_recommendations() -> None:
    rules = {rule["id"]: rule for rule in _run(_log(CheckOutcome()))["tool"]["driver"]["rules"]}
    assert rules["WM803"]["defaultConfiguration"]["level"] == "note"
    assert rules["WM803"]["properties"]["problem.severity"] == "recommendation"
    assert rules["WM802"]["defaultConfiguration"]["level"] == "warning"


def test_driver_and_run_metadata() -> None:
    log = _log(jobset_report(), category="wmaplint/catalog")
    run = _run(log)
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert log["version"] == "2.1.0"
    assert run["tool"]["driver"]["name"] == "wmaplint"
    assert run["tool"]["driver"]["semanticVersion"] == "0.1.0"
    # the tool's home, a toolComponent's informationUri (SARIF 2.1.0 section 3.19.17): the Repository URL
    assert run["tool"]["driver"]["informationUri"] == "https://github.com/wmaplint/wmaplint"
    assert run["columnKind"] == "utf16CodeUnits"
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": REPO.as_uri() + "/"}}
    assert run["invocations"] == [
        {"executionSuccessful": True, "workingDirectory": {"uri": REPO.as_uri() + "/"}}
    ]
    assert run["automationDetails"] == {"id": "wmaplint/catalog"}
    assert "automationDetails" not in _run(_log(jobset_report()))


def test_non_semver_version_only_fills_version() -> None:
    sarif = render_sarif(CheckOutcome(), tool_version="0.1.0.dev3", cwd=REPO)
    driver = _run(json.loads(sarif))["tool"]["driver"]
    assert driver["version"] == "0.1.0.dev3"
    assert "semanticVersion" not in driver


def test_result_for_unknown_field() -> None:
    results = _run(_log(jobset_report()))["results"]
    # sorted like every other format: line 12 (warning), 18 (error), 20 (info)
    assert [r["ruleId"] for r in results] == ["WM802", "WM801", "WM803"]
    assert [r["level"] for r in results] == ["warning", "error", "note"]
    result = results[1]
    rules = _run(_log(jobset_report()))["tool"]["driver"]["rules"]
    assert rules[result["ruleIndex"]]["id"] == "WM801"
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "catalog/jobset/jobset.yaml", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 18, "startColumn": 29, "endLine": 18, "endColumn": 42}
    # the CRD lies outside the repository: named by its file name in the message, never located
    assert result["message"]["text"] == (
        'unknown field "replicatedJob" in JobSet.spec; did you mean "replicatedJobs"? '
        "(see JobSet.spec.replicatedJobs is defined here (jobset_v1alpha2.yaml:223:15))"
    )
    assert "relatedLocations" not in result
    assert result["partialFingerprints"]["primaryLocationLineHash"] == line_hashes(DEFINITION)[18]


def test_related_location_in_the_repository_is_linked(sarif_validator: Draft4Validator) -> None:
    diagnostic = unknown_field()
    diagnostic.related = (RelatedLocation(DEFINITION_PATH, Span(7, 7, 7, 20), "the root component"),)
    log = _log(CheckOutcome([diagnostic], {DEFINITION_PATH: DEFINITION}, 1))
    _assert_valid(log, sarif_validator)
    result = _run(log)["results"][0]
    assert result["message"]["text"].endswith("(see [the root component](1))")
    assert result["relatedLocations"] == [
        {
            "id": 1,
            "physicalLocation": {
                "artifactLocation": {"uri": DEFINITION_PATH, "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 7, "startColumn": 7, "endLine": 7, "endColumn": 20},
            },
            "message": {"text": "the root component"},
        }
    ]


def test_related_location_inside_root_when_root_is_the_parent() -> None:
    result = _run(_log(jobset_report(), root=REPO.parent))["results"][1]
    artifact = result["relatedLocations"][0]["physicalLocation"]["artifactLocation"]
    assert artifact == {"uri": "shared/crds/jobset.x-k8s.io/jobset_v1alpha2.yaml", "uriBaseId": "%SRCROOT%"}
    primary = result["locations"][0]["physicalLocation"]["artifactLocation"]
    assert primary == {"uri": f"{REPO.name}/catalog/jobset/jobset.yaml", "uriBaseId": "%SRCROOT%"}


def test_fix_becomes_artifact_change() -> None:
    result = _run(_log(jobset_report()))["results"][1]
    assert result["fixes"] == [
        {
            "artifactChanges": [
                {
                    "artifactLocation": {"uri": "catalog/jobset/jobset.yaml", "uriBaseId": "%SRCROOT%"},
                    "replacements": [
                        {
                            "deletedRegion": {
                                "startLine": 18,
                                "startColumn": 29,
                                "endLine": 18,
                                "endColumn": 42,
                            },
                            "insertedContent": {"text": "replicatedJobs"},
                        }
                    ],
                }
            ],
            "description": {"text": 'replace with "replicatedJobs"'},
        }
    ]


def test_fix_without_edits_is_left_out(sarif_validator: Draft4Validator) -> None:
    diagnostic = scale_hint()
    diagnostic.fixes = (Fix("nothing to do", ()),)
    log = _log(CheckOutcome([diagnostic], {DEFINITION_PATH: DEFINITION}, 1))
    _assert_valid(log, sarif_validator)
    assert "fixes" not in _run(log)["results"][0]


def test_multi_line_region() -> None:
    result = _run(_log(CheckOutcome([missing_status()], {DEFINITION_PATH: DEFINITION}, 1)))["results"][0]
    region = result["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 12, "startColumn": 9, "endLine": 13, "endColumn": 69}


def test_astral_characters_shift_columns_to_utf16(sarif_validator: Draft4Validator) -> None:
    text = "metadata:\n  annotations: {note: '🚀🚀 ready', path: .spec.x}\n"
    line = text.splitlines()[1]
    start = line.index(".spec") + 1
    diagnostic = Diagnostic("WM801", Severity.ERROR, "m", "defs/rocket.yaml", Span(2, start, 2, start + 7))
    log = _log(CheckOutcome([diagnostic], {"defs/rocket.yaml": text}, 1))
    _assert_valid(log, sarif_validator)
    region = _run(log)["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region["startColumn"] == start + 2 and region["endColumn"] == start + 9
    assert (
        line.encode("utf-16-le")[(region["startColumn"] - 1) * 2 :].decode("utf-16-le").startswith(".spec.x")
    )


def test_regions_never_below_one_and_never_inverted(sarif_validator: Draft4Validator) -> None:
    broken = [
        Diagnostic("WM801", Severity.ERROR, "whole file", "a.yaml", Span.whole_file()),
        Diagnostic("WM801", Severity.ERROR, "zero span", "a.yaml", Span(0, 0, 0, 0)),
        Diagnostic("WM801", Severity.ERROR, "inverted", "a.yaml", Span(3, 9, 3, 2)),
        Diagnostic("WM801", Severity.ERROR, "past the end", "a.yaml", Span(40, 1, 40, 5)),
    ]
    log = _log(CheckOutcome(broken, {"a.yaml": "a: 1\nb: 2\nc: 3\n"}, 1))
    errors = list(sarif_validator.iter_errors(log))
    assert not errors
    # line 40 does not exist, so no line hash; everything else GitHub needs is there
    assert problems(log, require_line_hash=False) == []
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in _run(log)["results"]]
    assert {"startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 1} in regions
    assert {"startLine": 3, "startColumn": 9, "endLine": 3, "endColumn": 9} in regions


def test_stdin_and_absolute_paths(tmp_path: Path, sarif_validator: Draft4Validator) -> None:
    inside = REPO / "catalog" / "x.yaml"
    outside = tmp_path / "elsewhere.yaml"
    report = CheckOutcome(
        [
            Diagnostic("WM801", Severity.ERROR, "a", "<stdin>", Span(1, 1, 1, 2)),
            Diagnostic("WM801", Severity.ERROR, "b", str(inside), Span(1, 1, 1, 2)),
            Diagnostic("WM801", Severity.ERROR, "c", str(outside), Span(1, 1, 1, 2)),
            Diagnostic("WM801", Severity.ERROR, "d", "dir with space/ü.yaml", Span(1, 1, 1, 2)),
        ],
        {"<stdin>": "a: 1\n", str(inside): "b: 1\n", str(outside): "c: 1\n", "dir with space/ü.yaml": "d\n"},
        4,
    )
    log = _log(report)
    _assert_valid(log, sarif_validator)
    uris = {
        r["message"]["text"]: r["locations"][0]["physicalLocation"]["artifactLocation"]
        for r in _run(log)["results"]
    }
    assert uris["a"] == {"uri": "%3Cstdin%3E", "uriBaseId": "%SRCROOT%"}
    assert uris["b"] == {"uri": "catalog/x.yaml", "uriBaseId": "%SRCROOT%"}
    assert uris["d"] == {"uri": "dir%20with%20space/%C3%BC.yaml", "uriBaseId": "%SRCROOT%"}
    # a file outside the repository is kept, relative to a base of its own that the log locates
    assert uris["c"] == {"uri": "elsewhere.yaml", "uriBaseId": "OUTSIDE1"}
    assert _run(log)["originalUriBaseIds"]["OUTSIDE1"]["uri"] == tmp_path.as_uri() + "/"
    assert "toolExecutionNotifications" not in _run(log)["invocations"][0]
    assert f'"{tmp_path}' not in json.dumps(log)  # result URIs never hold a machine path


def test_symlinked_root_still_gives_relative_uris(tmp_path: Path) -> None:
    real = tmp_path / "real"
    (real / "defs").mkdir(parents=True)
    (real / "defs" / "a.yaml").write_text("a: 1\n", encoding="utf-8")
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    diagnostic = Diagnostic("WM801", Severity.ERROR, "a", str(real / "defs" / "a.yaml"), Span(1, 1, 1, 2))
    outcome = CheckOutcome([diagnostic], {}, 1)
    log = json.loads(render_sarif(outcome, tool_version="0.1.0", root=link, cwd=tmp_path))
    artifact = _run(log)["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert artifact == {"uri": "defs/a.yaml", "uriBaseId": "%SRCROOT%"}
    # the source was not in the report, so the file itself was read for the line hash
    assert (
        _run(log)["results"][0]["partialFingerprints"]["primaryLocationLineHash"] == line_hashes("a: 1\n")[1]
    )


def test_brackets_in_messages_stay_but_cannot_form_links(sarif_validator: Draft4Validator) -> None:
    diagnostic = unknown_field()
    diagnostic.message = "path .spec.replicatedJobs[] yields [x](2) values"
    diagnostic.related = (
        RelatedLocation(DEFINITION_PATH, None, "property [items] here"),
        RelatedLocation(CRD_PATH, None, "list [a](1) here"),
    )
    log = _log(CheckOutcome([diagnostic], {DEFINITION_PATH: DEFINITION}, 1))
    _assert_valid(log, sarif_validator)
    result = _run(log)["results"][0]
    assert result["message"]["text"] == (
        "path .spec.replicatedJobs[] yields [x\\](2) values (see [property \\[items\\] here](1), "
        "list [a\\](1) here (jobset_v1alpha2.yaml))"
    )
    assert len(result["relatedLocations"]) == 1
    assert "region" not in result["relatedLocations"][0]["physicalLocation"]


def test_related_locations_are_capped(sarif_validator: Draft4Validator) -> None:
    diagnostic = unknown_field()
    diagnostic.related = tuple(
        RelatedLocation(DEFINITION_PATH, Span(1, 1, 1, 2), f"candidate {i}") for i in range(MAX_RELATED + 20)
    )
    log = _log(CheckOutcome([diagnostic], {DEFINITION_PATH: DEFINITION}, 1))
    _assert_valid(log, sarif_validator)
    run = _run(log)
    assert len(run["results"][0]["relatedLocations"]) == MAX_RELATED
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert "related locations" in notes[0]["message"]["text"]


def test_result_limit_keeps_most_severe_first() -> None:
    infos = [
        Diagnostic("WM803", Severity.INFO, f"i{n}", "a.yaml", Span(n + 1, 1, n + 1, 2)) for n in range(5)
    ]
    errors = [
        Diagnostic("WM801", Severity.ERROR, f"e{n}", "b.yaml", Span(n + 1, 1, n + 1, 2)) for n in range(3)
    ]
    log = sarif_log(CheckOutcome(infos + errors, {}, 2), tool_version="0.1.0", cwd=REPO, max_results=4)
    run = log["runs"][0]
    assert [r["message"]["text"] for r in run["results"]] == ["i0", "e0", "e1", "e2"]
    assert run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"].startswith(
        "4 findings left"
    )


def test_github_result_limit_applies_by_default(sarif_validator: Draft4Validator) -> None:
    text = "".join(f"k{n}: v\n" for n in range(25_010))
    diagnostics = [
        Diagnostic("WM802", Severity.WARNING, "w", "big.yaml", Span(n + 1, 1, n + 1, 3))
        for n in range(25_010)
    ]
    log = _log(CheckOutcome(diagnostics, {"big.yaml": text}, 1))
    assert len(_run(log)["results"]) == 25_000
    assert problems(log) == []


def test_unregistered_rule_gets_a_descriptor(sarif_validator: Draft4Validator) -> None:
    diagnostic = Diagnostic("WM898", Severity.WARNING, "", "a.yaml", Span(1, 1, 1, 2))
    log = _log(CheckOutcome([diagnostic], {"a.yaml": "a: 1\n"}, 1))
    _assert_valid(log, sarif_validator)
    run = _run(log)
    result = run["results"][0]
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "WM898"
    assert result["message"]["text"] == "WM898"


def test_fingerprints_follow_content_not_line_numbers() -> None:
    shifted = "# a comment added above\n" + DEFINITION
    diagnostic = unknown_field()
    before = _run(_log(CheckOutcome([diagnostic], {DEFINITION_PATH: DEFINITION}, 1)))["results"][0]
    moved = unknown_field()
    moved.span = Span(19, moved.span.start_col, 19, moved.span.end_col)
    after = _run(_log(CheckOutcome([moved], {DEFINITION_PATH: shifted}, 1)))["results"][0]
    assert before["partialFingerprints"] == after["partialFingerprints"]


def test_output_is_deterministic_regardless_of_input_order() -> None:
    report = jobset_report()
    reversed_report = CheckOutcome(list(reversed(report.diagnostics)), report.sources, 1)
    first = render_sarif(report, tool_version="0.1.0", cwd=REPO)
    assert first == render_sarif(reversed_report, tool_version="0.1.0", cwd=REPO)


def test_render_dispatches_and_rejects_unknown_formats() -> None:
    log = json.loads(render(jobset_report(), "sarif", tool_version="0.1.0", root=REPO))
    assert len(log["runs"][0]["results"]) == 3
    with pytest.raises(UnknownFormatError, match="unknown output format 'xml'"):
        render(jobset_report(), "xml", tool_version="0.1.0")


def test_unreadable_inputs_make_the_run_unsuccessful(sarif_validator: Draft4Validator) -> None:
    report = jobset_report()
    report.errors = ["catalog/missing.yaml: no such file or directory"]
    log = _log(report)
    _assert_valid(log, sarif_validator)
    invocation = _run(log)["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert invocation["toolExecutionNotifications"] == [
        {"level": "error", "message": {"text": "catalog/missing.yaml: no such file or directory"}}
    ]


def test_every_project_rule_meets_githubs_requirements(sarif_validator: Draft4Validator) -> None:
    """The shipped rules (not just the test ones) must each make a descriptor GitHub accepts."""
    rules.load()
    log = _log(jobset_report())
    _assert_valid(log, sarif_validator)
    described = {rule["id"] for rule in _run(log)["tool"]["driver"]["rules"]}
    assert described == set(RULES)
    assert len(described) > len(["WM801", "WM802", "WM803"])


def test_relative_root_is_normalised(tmp_path: Path) -> None:
    (tmp_path / "repo" / "defs").mkdir(parents=True)
    diagnostic = Diagnostic("WM801", Severity.ERROR, "a", "defs/a.yaml", Span(1, 1, 1, 2))
    log = json.loads(
        render_sarif(
            CheckOutcome([diagnostic], {}, 1), tool_version="0.1.0", root=Path("../repo"),
            cwd=tmp_path / "repo",
        )
    )
    run = _run(log)
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == (tmp_path / "repo").as_uri() + "/"
    assert run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "defs/a.yaml"
