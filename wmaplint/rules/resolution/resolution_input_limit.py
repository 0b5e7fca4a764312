"""WM718 resolution-input-limit: a manifest input exceeds what `tree` and `test` resolve."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import DocumentTooLarge, TooManyDocuments, TooManyNodes
from wmaplint.rules import reports
from wmaplint.rules.examples import jobset_tree

_ALIASED_LIST = "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 8)}]\n" for i in range(4)
)
_MIB = 1 << 20

RULE = define(
    "WM718",
    "resolution-input-limit",
    "error",
    "A manifest input exceeds what `tree` and `test` resolve: a document over 1 MiB of text or 30,000 YAML "
    "nodes, or more than 5,000 manifest documents in one run.",
    why="Resolution time and memory grow with the input; past these limits wmaplint reports the input "
    "instead of working for minutes. Real workload objects are far smaller: etcd, which stores them, "
    "refuses requests over 1.5 MiB by default.",
    bad=jobset_tree().replace(
        "metadata: {name: train}\n",
        "metadata: {name: train}\npadding:\n  a: &a [x, x, x, x, x, x, x, x]\n"
        + "".join("  " + line + "\n" for line in _ALIASED_LIST.splitlines()),
    ),
    good=jobset_tree(),
    fix="Resolve the workloads in smaller pieces: split the stream across runs, or trim generated lists.",
    example_mode="tree",
)


@reports(RULE, TooManyDocuments)
def documents(finding: TooManyDocuments) -> str:
    return f"more than {finding.limit} manifest documents; this one and the rest are not resolved"


@reports(RULE, DocumentTooLarge)
def size(finding: DocumentTooLarge) -> str:
    return (
        f"manifest document of {finding.size / _MIB:.1f} MiB is larger than the {finding.limit // _MIB} MiB "
        "wmaplint resolves; not resolved"
    )


@reports(RULE, TooManyNodes)
def nodes(finding: TooManyNodes) -> str:
    return f"manifest document has more than {finding.limit} YAML nodes; not resolved"
