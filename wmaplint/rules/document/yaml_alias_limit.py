"""WM103 yaml-alias-limit: aliases expand the document beyond a safe size."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.rules import reports
from wmaplint.rules.examples import job_with
from wmaplint.source.faults import AliasExpansion

RULE = define(
    "WM103", "yaml-alias-limit", "error",
    "YAML aliases expand the document beyond a safe size.",
    why="Nested aliases (a 'billion laughs' file) make a small file expand to gigabytes in a decoder "
    "without a limit. Kubernetes' Go YAML decoders have one since CVE-2019-11253 and refuse such a file "
    "(`document contains excessive aliasing`; kubernetes/kubernetes#83253), though at their own threshold, "
    "not wmaplint's node count. No real definition needs this.",
    bad=job_with("metadata: {name: batch-job-v1}\n", "metadata:\n  name: batch-job-v1\n  annotations:\n"
                 "    # 10^7 values once the aliases are expanded\n    x-padding:\n"
                 "      a: &a [x, x, x, x, x, x, x, x, x, x]\n"
                 + "".join(f"      {chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n"
                           for i in range(6))),
    good=job_with("metadata: {name: batch-job-v1}\n", "metadata:\n  name: batch-job-v1\n  annotations:\n"
                  "    # a value written once and named again: a few aliases are fine\n"
                  "    team: &team ml-platform\n    contact: *team\n"),
    fix="Write the values out or use fewer nested aliases.",
    tags=("yaml",),
)


@reports(RULE, AliasExpansion)
def message(finding: AliasExpansion) -> str:
    return f"aliases expand this document beyond {finding.limit} nodes; refusing to read it"
