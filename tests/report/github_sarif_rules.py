"""GitHub code scanning's requirements on a SARIF log, beyond the 2.1.0 schema (INTEGRATIONS.md §6).

``problems(log)`` lists every violation in words, so a failing test says what GitHub would reject.
"""

from __future__ import annotations

import re
from typing import Any

LEVELS = {"none", "note", "warning", "error"}
PRECISIONS = {"very-high", "high", "medium", "low"}
PROBLEM_SEVERITIES = {"error", "warning", "recommendation"}
LINE_HASH = re.compile(r"[0-9a-f]+:\d+")
LINK = re.compile(r"(?<!\\)\[(?:[^\]\\]|\\.)*\]\((\d+)\)")


def _text(obj: Any) -> str:
    return obj.get("text", "") if isinstance(obj, dict) else ""


def _region_problems(where: str, region: Any) -> list[str]:
    if not isinstance(region, dict):
        return [f"{where}: no region"]
    out = []
    for key in ("startLine", "startColumn", "endLine", "endColumn"):
        value = region.get(key)
        if not isinstance(value, int) or value < 1:
            out.append(f"{where}: region.{key} is {value!r}, needs an integer >= 1")
    if not out:
        if region["endLine"] < region["startLine"]:
            out.append(f"{where}: region ends before it starts")
        elif region["endLine"] == region["startLine"] and region["endColumn"] < region["startColumn"]:
            out.append(f"{where}: region ends before it starts")
    if "snippet" in region and not region["snippet"]:
        out.append(f"{where}: empty snippet")
    return out


def _uri_problems(where: str, artifact: Any, base_ids: dict[str, Any]) -> list[str]:
    """A location's URI must be relative (to the repository, or to a described root of the tool's own)."""
    uri = artifact.get("uri", "") if isinstance(artifact, dict) else ""
    if not uri:
        return [f"{where}: artifactLocation.uri missing"]
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", uri):
        return [f"{where}: absolute uri {uri!r} (machine paths must not leave the machine)"]
    out = []
    if uri.startswith("/"):
        out.append(f"{where}: uri {uri!r} is rooted but has no scheme")
    if ".." in uri.split("/"):
        out.append(f"{where}: uri {uri!r} climbs out of its root")
    base = artifact.get("uriBaseId")
    if base is None:
        out.append(f"{where}: uri {uri!r} has no uriBaseId")
    elif base not in base_ids:
        out.append(f"{where}: uriBaseId {base!r} not in originalUriBaseIds")
    return out


def _outside_code(markdown: str) -> str:
    """Markdown without fenced blocks and code spans (where '<' is shown as it is)."""
    without_fences = re.sub(r"(?ms)^(`{3,})[^\n]*\n.*?^\1\s*$", "", markdown)
    return re.sub(r"(`+)(?:(?!\1).)+?\1", "", without_fences, flags=re.S)


def problems(log: dict[str, Any], *, require_line_hash: bool = True) -> list[str]:
    out: list[str] = []
    if not log.get("$schema"):
        out.append("$schema missing")
    if log.get("version") != "2.1.0":
        out.append("version is not 2.1.0")
    runs = log.get("runs")
    if not isinstance(runs, list) or len(runs) != 1:
        return out + ["expected exactly one run"]
    run = runs[0]
    driver = run.get("tool", {}).get("driver", {})
    if not driver.get("name"):
        out.append("tool.driver.name missing")
    rules = driver.get("rules")
    if not isinstance(rules, list):
        return out + ["tool.driver.rules missing"]
    if len(rules) > 25_000:
        out.append("more than 25,000 rules")
    ids = [rule.get("id") for rule in rules]
    if len(set(ids)) != len(ids):
        out.append("rule ids are not unique")
    for rule in rules:
        rid = rule.get("id")
        for key in ("shortDescription", "fullDescription"):
            text = _text(rule.get(key))
            if not text.strip() or len(text) > 1024:
                out.append(f"rule {rid}: {key}.text empty or over 1024 characters")
        if not _text(rule.get("help")).strip():
            out.append(f"rule {rid}: help.text empty")
        if not str(rule.get("helpUri", "")).startswith("https://"):
            out.append(f"rule {rid}: no helpUri")
        if re.search(r"(?<!\\)<[A-Za-z]", _outside_code(rule.get("help", {}).get("markdown", ""))):
            out.append(f"rule {rid}: help.markdown has raw '<' that GitHub's renderer takes for HTML")
        if len(rule.get("name", "")) > 255:
            out.append(f"rule {rid}: name over 255 characters")
        if rule.get("defaultConfiguration", {}).get("level", "warning") not in LEVELS - {"none"}:
            out.append(f"rule {rid}: bad default level")
        props = rule.get("properties", {})
        if len(props.get("tags", [])) > 20:
            out.append(f"rule {rid}: more than 20 tags")
        if props.get("precision", "high") not in PRECISIONS:
            out.append(f"rule {rid}: bad precision")
        if props.get("problem.severity", "warning") not in PROBLEM_SEVERITIES:
            out.append(f"rule {rid}: bad problem.severity")
        if "security-severity" in props:
            out.append(f"rule {rid}: security-severity set on a correctness rule")
    base_ids = run.get("originalUriBaseIds", {})
    if "%SRCROOT%" not in base_ids:
        out.append("originalUriBaseIds has no %SRCROOT%")
    for name, base in base_ids.items():
        if name == "%SRCROOT%" or name.startswith("OUTSIDE"):  # the checked trees: located, as directories
            if not base.get("uri", "").endswith("/"):
                out.append(f"originalUriBaseIds {name}: uri must end with '/'")
        elif "uri" in base or not _text(base.get("description")):
            out.append(f"originalUriBaseIds {name}: a root of the tool's is described, never located")
    results = run.get("results")
    if not isinstance(results, list):
        return out + ["results array missing"]
    if len(results) > 25_000:
        out.append("more than 25,000 results")
    for n, result in enumerate(results):
        where = f"result {n}"
        rule_id = result.get("ruleId")
        if rule_id not in ids:
            out.append(f"{where}: ruleId {rule_id!r} not among rules")
        elif "ruleIndex" in result and ids[result["ruleIndex"]] != rule_id:
            out.append(f"{where}: ruleIndex does not point at ruleId")
        if result.get("level", "warning") not in LEVELS:
            out.append(f"{where}: bad level")
        message = _text(result.get("message"))
        if not message.strip():
            out.append(f"{where}: empty message")
        locations = result.get("locations")
        if not isinstance(locations, list) or not 1 <= len(locations) <= 10:
            out.append(f"{where}: needs 1 to 10 locations")
            continue
        physical = locations[0].get("physicalLocation")
        if not isinstance(physical, dict):
            out.append(f"{where}: no physicalLocation")
            continue
        out += _uri_problems(where, physical.get("artifactLocation"), base_ids)
        out += _region_problems(where, physical.get("region"))
        fingerprints = result.get("partialFingerprints")
        if not fingerprints:
            out.append(f"{where}: partialFingerprints missing")
        elif require_line_hash and not re.fullmatch(
            r"[0-9a-f]+:\d+", fingerprints.get("primaryLocationLineHash", "")
        ):
            out.append(f"{where}: primaryLocationLineHash missing or malformed")
        related = result.get("relatedLocations", [])
        if len(related) > 1000:
            out.append(f"{where}: more than 1000 related locations")
        related_ids = [loc.get("id") for loc in related]
        if len(set(related_ids)) != len(related_ids) or None in related_ids:
            out.append(f"{where}: related locations need unique ids")
        for ref in LINK.findall(message):
            if int(ref) not in related_ids:
                out.append(f"{where}: message links to missing related location {ref}")
        for loc in related:
            out += _uri_problems(
                f"{where} related", loc.get("physicalLocation", {}).get("artifactLocation"), base_ids
            )
            if "region" in loc.get("physicalLocation", {}):
                out += _region_problems(f"{where} related", loc["physicalLocation"]["region"])
    return out
