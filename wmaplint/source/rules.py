"""Rules for faults of the file itself (YAML level)."""

from wmaplint.diagnostics import define
from wmaplint.examples import JOB

YAML_SYNTAX = define(
    "WM101", "yaml-syntax", "error",
    "The file is not valid YAML (or JSON).",
    why="A definition that does not parse is rejected by kubectl and by every consumer; the parser stops at "
    "the first fault, so nothing after it is checked.",
    bad=JOB.replace("kind: Karta", "kind: Karta\n  broken: [", 1),
    good=JOB,
    fix="Correct the YAML at the reported position (unclosed brackets, bad indentation, tabs).",
    tags=("yaml",),
)

DUPLICATE_KEY = define(
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

YAML_ALIAS_LIMIT = define(
    "WM103", "yaml-alias-limit", "error",
    "YAML aliases expand the document beyond a safe size.",
    why="Nested aliases (a 'billion laughs' file) make a small file expand to gigabytes in a decoder "
    "without a limit. Kubernetes' Go YAML decoders have one since CVE-2019-11253 and refuse such a file "
    "(`document contains excessive aliasing`; kubernetes/kubernetes#83253), though at their own threshold, "
    "not wmaplint's node count. No real definition needs this.",
    bad="a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(6)
    ),
    good=JOB,
    fix="Write the values out or use fewer nested aliases.",
    tags=("yaml",),
)
