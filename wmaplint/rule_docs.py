"""Rule documentation as Markdown: `wmaplint explain`, docs/rules.md and SARIF help all read from here."""

from __future__ import annotations

from wmaplint.diagnostics import RULES, Rule


def rule_anchor(rule: Rule) -> str:
    """The fragment of the rule's section in docs/rules.md (as GitHub derives it from the heading)."""
    return f"{rule.id.lower()}-{rule.name}"


def rule_markdown(rule: Rule, heading: str = "#") -> str:
    lang = "yaml" if rule.example_filename.endswith((".yaml", ".yml")) else ""
    parts = [
        f"{heading} {rule.id} {rule.name}",
        "",
        f"Default severity: **{rule.severity.label}**.",
        "",
        rule.summary,
        "",
        f"{heading}# Why it matters",
        "",
        rule.why,
        "",
        f"{heading}# Failing example",
        "",
        f"```{lang}",
        rule.bad.rstrip("\n"),
        "```",
        "",
        f"{heading}# Passing example",
        "",
        f"```{lang}",
        rule.good.rstrip("\n"),
        "```",
    ]
    if rule.fix:
        parts += ["", f"{heading}# How to fix", "", rule.fix]
    return "\n".join(parts) + "\n"


def rules_document() -> str:
    """docs/rules.md: generated from the registry; a test keeps the file current."""
    ordered = [RULES[k] for k in sorted(RULES)]
    lines = [
        "# wmaplint rules",
        "",
        "Generated from the rule registry (`python -m wmaplint.rule_docs > docs/rules.md`); do not edit by "
        "hand.",
        "",
        "| id | name | severity | summary |",
        "|---|---|---|---|",
    ]
    for r in ordered:
        lines.append(f"| [{r.id}](#{rule_anchor(r)}) | {r.name} | {r.severity.label} | {r.summary} |")
    lines.append("")
    for r in ordered:
        lines.append(rule_markdown(r, heading="##"))
    return "\n".join(lines)


if __name__ == "__main__":
    from wmaplint.checks import load_checks
    from wmaplint.rule_modules import import_rule_modules

    load_checks()
    import_rule_modules()
    print(rules_document(), end="")
