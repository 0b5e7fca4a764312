"""What a definition field expects from its jq expression (built by the checks that map fields to roles)."""

from __future__ import annotations

from wmaplint.dataclass import dataclass

#: accepted values of ``ExprRole.cardinality``
CARDINALITIES = ("per-instance", "instance-ids", "one", "first", "stream")


@dataclass(frozen=True)
class ExprRole:
    """How one expression is used.

    ``field``: the definition field name (``replicasPath``, ``podTemplateSpecPath``, ``keyPath``...).
    ``context``: the evaluation context, ``"root"`` (evaluated against the workload object) or ``"pod"``
    (against a Pod); not the rule context of ``wmaplint.rules.context``.
    ``cardinality``: ``"per-instance"`` (one output per instance: spec and scale paths), ``"instance-ids"``
    (``instanceIdPath``: defines the instances), ``"one"`` (exactly one output: pod selector id/replica paths,
    gang keys), ``"first"`` (only the first output is used: phase path, byExpression), ``"stream"``
    (any number:
    conditions path, type-selector existence).
    ``writable``: the path is also written through ``path(...)`` (spec and suspend paths).
    ``selector_value``: ``componentTypeSelector.value`` when present (the runtime evaluates
    ``<keyPath> == <json value>``). ``expected_result``: ``byExpression.expectedResult``.
    ``has_instances``: the component has an ``instanceIdPath``; ``instance_ids``: its text (None without).
    """

    field: str
    context: str
    cardinality: str
    writable: bool = False
    selector_value: str | None = None
    expected_result: str | None = None
    has_instances: bool = False
    instance_ids: str | None = None
