"""docs/rules.md: every rule's reference (``wmaplint.rule_reference``) with what its failing and passing
examples print, run as a user runs them (``wmaplint.rule_examples``), as actionlint's docs show each check's
output. ``python -m wmaplint.rule_docs > docs/rules.md`` writes it; the tests hold the file to it, rule by
rule."""

from __future__ import annotations

from collections.abc import Callable

from wmaplint.diagnostics import RULES, Rule
from wmaplint.rule_examples import Printed, run_examples
from wmaplint.rule_reference import RETIRED, retired_markdown, rule_anchor, rule_markdown

HEADER = [
    "# wmaplint rules",
    "",
    "Generated from the rule registry (`python -m wmaplint.rule_docs > docs/rules.md`); do not edit by hand. "
    "Under each example, what the command shown prints for it, run in a folder holding the example alone "
    "(and the file the command names beside it) on a machine with an empty cache.",
    "",
]


def printed_markdown(printed: Printed) -> str:
    """What a command prints, as Markdown: the command, then its output in a block."""
    beside = f" ({printed.beside})" if printed.beside else ""
    if not printed.output.strip():
        return f"`{printed.command}`{beside} prints nothing."
    fence = "````" if "```" in printed.output else "```"
    return f"`{printed.command}`{beside} prints:\n\n{fence}text\n{printed.output.rstrip()}\n{fence}"


def rule_section(rule: Rule, printed: tuple[Printed, Printed]) -> str:
    """The rule's section of docs/rules.md."""
    bad, good = printed
    return rule_markdown(rule, heading="##", printed=(printed_markdown(bad), printed_markdown(good)))


def run_section(rule: Rule) -> str:
    """The rule's section of docs/rules.md, its examples run now."""
    return rule_section(rule, run_examples(rule))


def rules_document(section_of: Callable[[Rule], str] = run_section) -> str:
    """docs/rules.md, with ``section_of(rule)`` as each rule's section (the tests hold the sections one by
    one, and the rest of the file with the sections it has)."""
    ordered = [RULES[k] for k in sorted(RULES)]
    lines = [*HEADER, "| id | name | severity | summary |", "|---|---|---|---|"]
    for r in ordered:
        lines.append(f"| [{r.id}](#{rule_anchor(r)}) | {r.name} | {r.severity.label} | {r.summary} |")
    lines.append("")
    for r in ordered:
        lines.append(section_of(r))
    lines += ["## Retired rules", "",
              "An id whose rule changed its meaning is retired, never given to another rule.", ""]
    for rule_id in sorted(RETIRED):
        lines.append(retired_markdown(rule_id, heading="###") or "")
    return "\n".join(lines)


if __name__ == "__main__":
    from wmaplint import rules

    rules.load()
    print(rules_document(), end="")
