"""SARIF reportingDescriptors for the rule registry: GitHub shows these as each alert's rule help."""

from __future__ import annotations

import re
from typing import Any

from wmaplint import memo
from wmaplint.diagnostics import Rule, Severity
from wmaplint.rule_reference import rule_anchor

MAX_DESCRIPTION = 1024  # GitHub rejects longer shortDescription/fullDescription texts
MAX_NAME = 255
MAX_TAGS = 20
DEFAULT_PRECISION = "high"
PRECISIONS = ("very-high", "high", "medium", "low")

LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
PROBLEM_SEVERITY = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "recommendation"}

# The hundreds digit of a rule id names its area (DESIGN.md, "Rule ids"); a tag lets users filter by it.
AREA_TAGS = {
    "1": "structure",
    "2": "jq",
    "3": "schema",
    "4": "status",
    "5": "components",
    "6": "cel",
    "7": "resolution",
    "9": "configuration",
}


# The project's documentation on its repository; the repository URL is the one in ``[project.urls]`` of
# pyproject.toml (the installed package's metadata).
DOCS_PATH = "blob/main/docs"


@memo.lru_cache(maxsize=1)
def repository_url() -> str | None:
    """The ``Repository`` URL of the installed wmaplint without a trailing slash; None when not installed."""
    from importlib import metadata

    try:
        urls: list[str] = metadata.metadata("wmaplint").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip().lower() == "repository" and url.strip():
            return url.strip().rstrip("/")
    return None


def docs_uri(page: str, anchor: str = "") -> str | None:
    """A page of docs/ (and a section of it) on the project's repository."""
    repository = repository_url()
    if repository is None:
        return None
    return f"{repository}/{DOCS_PATH}/{page}" + (f"#{anchor}" if anchor else "")


def rule_help_uri(rule: Rule) -> str | None:
    """The rule's section of docs/rules.md."""
    return docs_uri("rules.md", rule_anchor(rule))


_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)


def markdown_prose(text: str) -> str:
    """Prose for GitHub's Markdown renderer: ``<`` outside code spans is escaped, so placeholders such as
    ``<kind>`` are shown instead of being taken for HTML tags and dropped."""
    out: list[str] = []
    last = 0
    for match in _CODE_SPAN.finditer(text):
        out.append(text[last : match.start()].replace("<", "\\<"))
        out.append(match.group(0))
        last = match.end()
    out.append(text[last:].replace("<", "\\<"))
    return "".join(out)


def clip(text: str, limit: int) -> str:
    text = text.strip()
    if len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "\u2026"


def _fence(code: str) -> str:
    """A backtick fence longer than any backtick run inside ``code``."""
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    return "`" * max(3, longest + 1)


def _language(filename: str) -> str:
    suffix = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    return {"yaml": "yaml", "yml": "yaml", "json": "json", "jq": "jq"}.get(suffix, "")


def _indent(code: str) -> str:
    return "\n".join("    " + line if line else "" for line in code.rstrip("\n").splitlines())


def _summary(rule: Rule) -> str:
    return rule.summary.strip() or f"{rule.id} {rule.name}".strip()


def _examples(rule: Rule) -> tuple[str, str]:
    if not (rule.bad.strip() and rule.good.strip()):
        return rule.bad, rule.good  # a pack rule's docs have none
    from wmaplint.rule_reference import example_snippets

    return example_snippets(rule)


def help_text(rule: Rule) -> str:
    parts = [f"{rule.id} {rule.name}: {_summary(rule)}"]
    if rule.why.strip():
        parts.append("Why: " + rule.why.strip())
    bad, good = _examples(rule)
    if bad.strip():
        parts.append(f"Failing example ({rule.example_filename}):\n" + _indent(bad))
    if good.strip():
        parts.append(f"Passing example ({rule.example_filename}):\n" + _indent(good))
    if rule.fix.strip():
        parts.append("How to fix: " + rule.fix.strip())
    return "\n\n".join(parts)


def help_markdown(rule: Rule) -> str:
    parts = [f"**{rule.id} {rule.name}**: {markdown_prose(_summary(rule))}"]
    if rule.why.strip():
        parts.append("### Why\n\n" + markdown_prose(rule.why.strip()))
    language = _language(rule.example_filename)
    for title, code in zip(("Failing example", "Passing example"), _examples(rule), strict=True):
        if code.strip():
            fence = _fence(code)
            parts.append(
                f"### {title} (`{rule.example_filename}`)\n\n{fence}{language}\n{code.rstrip()}\n{fence}"
            )
    if rule.fix.strip():
        parts.append("### How to fix\n\n" + markdown_prose(rule.fix.strip()))
    return "\n\n".join(parts)


def _tags_and_precision(rule: Rule) -> tuple[list[str], str]:
    """Tags for filtering; a tag ``precision:<level>`` sets the rule's precision instead."""
    precision = DEFAULT_PRECISION
    tags: list[str] = []
    area = AREA_TAGS.get(rule.id[2:3], "")
    for tag in (area, *rule.tags):
        if tag.startswith("precision:") and tag.split(":", 1)[1] in PRECISIONS:
            precision = tag.split(":", 1)[1]
        elif tag and tag not in tags:
            tags.append(tag)
    return tags[:MAX_TAGS], precision


def rule_descriptor(rule: Rule, help_uri: str | None) -> dict[str, Any]:
    """The reportingDescriptor of ``rule``, linking ``help_uri`` (where the rule is documented) when known."""
    severity = Severity(rule.severity)
    tags, precision = _tags_and_precision(rule)
    summary = _summary(rule)
    full = summary if not rule.why.strip() else f"{summary} {rule.why.strip()}"
    descriptor: dict[str, Any] = {"id": rule.id}
    if rule.name:
        descriptor["name"] = clip(rule.name, MAX_NAME)
    descriptor.update(
        {
            "shortDescription": {"text": clip(summary, MAX_DESCRIPTION)},
            "fullDescription": {"text": clip(full, MAX_DESCRIPTION)},
            "help": {"text": help_text(rule), "markdown": help_markdown(rule)},
            "defaultConfiguration": {"level": LEVEL[severity]},
            "properties": {
                "tags": tags,
                "precision": precision,
                "problem.severity": PROBLEM_SEVERITY[severity],
            },
        }
    )
    if help_uri:
        descriptor["helpUri"] = help_uri
    return descriptor


def unregistered_descriptor(rule_id: str, severity: Severity) -> dict[str, Any]:
    """A descriptor for a rule id that reached a result without being registered (keeps the log valid)."""
    text = f"Findings reported under {rule_id}, a rule this version of wmaplint does not document."
    descriptor: dict[str, Any] = {
        "id": rule_id,
        "shortDescription": {"text": f"{rule_id} (undocumented rule)"},
        "fullDescription": {"text": text},
        "help": {"text": text, "markdown": text},
        "defaultConfiguration": {"level": LEVEL[severity]},
        "properties": {
            "tags": [],
            "precision": DEFAULT_PRECISION,
            "problem.severity": PROBLEM_SEVERITY[severity],
        },
    }
    help_uri = docs_uri("rules.md")
    if help_uri:
        descriptor["helpUri"] = help_uri
    return descriptor
