"""The controller model: what each framework's controllers do with a workload, one file a framework under
``schemas/controllers/`` (shape: ``schemas/controllers.schema.json``), merged with a project's own files.

An analysis-level package beside ``status/`` and ``resolve/``: rules, ``tree``, ``new`` and the editor read
it; it reads nothing of theirs. The API:

- :func:`load_model` ``(extra=())`` -> :class:`Model`: the shipped model with a project's files merged over
  it; ``Model.model_for(group, kind, version)`` and ``Model.closest(...)`` give a :class:`KindModel`.
- :func:`model_for` ``(group, kind, version)``: the shipped model of one kind at one version, or None.
- :class:`KindModel`: ``creates`` (:class:`CreatedObject`: kind, count, template, entries, groups),
  ``pod_labels(created)`` (:class:`WrittenLabel` by key: role, how the value derives, source), ``pods``
  (:class:`PodFacts`: exhaustive, domains, annotations), ``status`` (:class:`StatusFacts`: conditions,
  reasons, phases, exhaustive), ``suspend`` (:class:`SuspendSwitch`), ``integer_field(path)`` and
  ``replica_count_fields()`` (:class:`IntegerField`), ``assumptions``, ``admitted(path)``
  (:class:`Admitted`: what the operator's webhooks ensure of every stored object).

Where a fact is not known the model says so (``exhaustive: false``, ``count: unknown``, ``derive: null``, a
missing ``suspend``), and nothing is reported from it.
"""

from __future__ import annotations

from wmaplint.controllers.load import MODEL_DIR, SCHEMA_FILE, ModelError, load_model, model_for, parse_model
from wmaplint.controllers.model import (
    ROLES,
    UNKNOWN,
    Admitted,
    Assumption,
    CreatedObject,
    IntegerField,
    KindModel,
    Model,
    PodFacts,
    StatusFacts,
    SuspendSwitch,
    WrittenCondition,
    WrittenLabel,
    WrittenPhase,
)

__all__ = [
    "MODEL_DIR", "ROLES", "SCHEMA_FILE", "UNKNOWN", "Admitted", "Assumption", "CreatedObject", "IntegerField",
    "KindModel", "Model", "ModelError", "PodFacts", "StatusFacts", "SuspendSwitch", "WrittenCondition",
    "WrittenLabel", "WrittenPhase", "load_model", "model_for", "parse_model",
]
