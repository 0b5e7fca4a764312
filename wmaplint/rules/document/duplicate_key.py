"""WM102 duplicate-key: a mapping has the same key twice."""

from __future__ import annotations

from wmaplint.diagnostics import Diagnostic, RelatedLocation, define
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB
from wmaplint.source.faults import DuplicateKey, DuplicateKeysNotListed

RULE = define(
    "WM102", "duplicate-key", "error",
    "A mapping has the same key twice.",
    why="One of the two values is lost without a word. kubectl converts YAML to JSON on the client, "
    "keeping the last value, so the API server never sees the repeat: its strict field validation "
    "(kubectl's default since 1.27), which refuses duplicate fields in a request, does not catch it, and "
    "the object is stored with the last value (kubernetes/kubernetes#125885, #89303). The operator and KAI "
    "read that stored object; `kli validate` decodes the file with sigs.k8s.io/yaml's non-strict mode, "
    "which also keeps the last. YAML readers built on yaml.v3, such as kustomize's (`kubectl apply -k`), "
    "refuse the file instead (`mapping key ... already defined`).",
    bad=JOB.replace("      name: job\n", "      name: job\n      name: batch-job\n", 1),
    good=JOB,
    fix="Remove or rename one of the keys.",
    tags=("yaml",),
)


@reports(RULE, DuplicateKey)
def diagnostic(finding: DuplicateKey) -> Diagnostic:
    message = (f"duplicate key {finding.key!r}: kubectl and the Go decoders keep only the last value, and "
               "stricter YAML readers refuse the file")
    found = finding.diagnostic(RULE, message)
    found.related = (RelatedLocation(finding.path, finding.first, "first defined here"),)
    return found


@reports(RULE, DuplicateKeysNotListed)
def not_listed(finding: DuplicateKeysNotListed) -> str:
    return f"{finding.count:,} more duplicate keys from here on, not listed one by one"
