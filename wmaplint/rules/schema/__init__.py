"""Paths proven against the workload's CRD and the Pod schema: fields, types, what each field must reach
(WM3xx).

Every path of the definition is typed once against its schemas (``DefinitionContext.typed_paths``,
``wmaplint.typecheck.paths``); each rule words the findings of its kinds with ``@reports``, and
``wmaplint.rules.placement`` places them in the file.
"""
