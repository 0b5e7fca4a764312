"""Paths proven against the workload's CRD and the Pod schema: fields, types, what each field must reach
(WM3xx)."""
