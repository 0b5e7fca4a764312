"""A rule's documentation as Markdown: `wmaplint explain`, the SARIF rule help and docs/rules.md
(``wmaplint.rule_docs``, which adds what each example prints) all read it from here."""

from __future__ import annotations

from wmaplint.diagnostics import Rule


def rule_anchor(rule: Rule) -> str:
    """The fragment of the rule's section in docs/rules.md (as GitHub derives it from the heading)."""
    return f"{rule.id.lower()}-{rule.name}"


ANCESTORS = 4  # enclosing lines shown above a snippet, so a reader sees where it stands


def example_snippets(rule: Rule) -> tuple[str, str]:
    """The failing and the passing example as a reader should see them: where the two whole files (which the
    tests run) differ, under the lines that enclose the change (``...`` where lines are left out). Examples
    with nothing in common are shown whole."""
    bad, good = rule.bad.rstrip("\n").splitlines(), rule.good.rstrip("\n").splitlines()
    head = 0
    while head < min(len(bad), len(good)) and bad[head] == good[head]:
        head += 1
    tail = 0
    while tail < min(len(bad), len(good)) - head and bad[-1 - tail] == good[-1 - tail]:
        tail += 1
    if head == 0 and tail == 0:
        return "\n".join(bad), "\n".join(good)
    first = (bad[head:len(bad) - tail] or good[head:len(good) - tail] or [""])[0]
    above = _enclosing(bad[:head], first)
    return _snippet(bad, head, len(bad) - tail, above), _snippet(good, head, len(good) - tail, above)


def _indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _enclosing(before: list[str], first: str) -> list[int]:
    """Indexes of the lines above the change that hold it (less indented, each in turn)."""
    found: list[int] = []
    depth = _indent_of(first) if first.strip() else 1 << 30
    item = first.lstrip().startswith("- ")  # a sequence item may sit at its key's own indentation
    for index in range(len(before) - 1, -1, -1):
        line = before[index]
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = _indent_of(line)
        if indent < depth or (item and indent == depth and not line.lstrip().startswith("- ")):
            found.append(index)
            depth, item = indent, line.lstrip().startswith("- ")
            if len(found) == ANCESTORS or (depth == 0 and not item):
                break
    if not found and before:
        found.append(len(before) - 1)  # a change at the top level: the line before it
    return sorted(found)


def _snippet(lines: list[str], start: int, end: int, above: list[int]) -> str:
    shown: list[str] = []
    last = -1
    for index in above:
        if last >= 0 and index != last + 1:
            shown.append(" " * _indent_of(lines[index]) + "...")
        shown.append(lines[index])
        last = index
    changed = lines[start:max(start, end)]
    # where the other example has lines, this one shows that it has none
    body = changed or [" " * (_indent_of(lines[above[-1]]) + 2 if above else 0) + "# (nothing here)"]
    if above and above[-1] != start - 1:
        shown.append(" " * _indent_of(body[0]) + "...")
    shown.extend(body)
    return "\n".join(shown)


def rule_markdown(rule: Rule, heading: str = "#", printed: tuple[str, str] | None = None) -> str:
    """The rule's section; ``printed``: what the failing and the passing example print, as Markdown to stand
    under each (docs/rules.md has it, ``explain`` does not run the examples)."""
    lang = "yaml" if rule.example_filename.endswith((".yaml", ".yml")) else ""
    bad, good = example_snippets(rule)
    after_bad, after_good = ([], []) if printed is None else (["", printed[0]], ["", printed[1]])
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
        bad,
        "```",
        *after_bad,
        "",
        f"{heading}# Passing example",
        "",
        f"```{lang}",
        good,
        "```",
        *after_good,
    ]
    if rule.fix:
        parts += ["", f"{heading}# How to fix", "", rule.fix]
    return "\n".join(parts) + "\n"


# Rules whose meaning changed so much that their ids were retired (an id is never given to another rule): id
# -> (name, why, what reports it now)
RETIRED: dict[str, tuple[str, str, str]] = {
    "WM531": ("gang-key-names-a-part",
              "it reported a gang key reading a label that names a part of the workload, on the premise that "
              "workloads sharing a value share a gang; KAI's Karta grouper names every PodGroup by the "
              "workload's uid, so a key only splits one workload's pods, and splitting is the author's "
              "choice",
              "the PodGroups KAI's grouper makes are judged by pod-group-min-available-differs, "
              "pod-group-never-fills, gang-key-not-a-name and pod-not-grouped"),
    "WM733": ("gang-key-splits-run",
              "it reported a gang key giving the parts of one replica of the workload different values; a "
              "split of one workload into several PodGroups is no fault where each is sized by its own pods",
              "a split whose PodGroups cannot fill is pod-group-never-fills; pods of one PodGroup sized "
              "differently, pod-group-min-available-differs"),
}


def retired_markdown(rule_id: str, heading: str = "#") -> str | None:
    """The note of a retired rule id, None for an id never retired."""
    found = RETIRED.get(rule_id.upper())
    if found is None:
        return None
    name, why, now = found
    return f"{heading} {rule_id.upper()} {name} (retired)\n\nRetired: {why}. Now: {now}.\n"
