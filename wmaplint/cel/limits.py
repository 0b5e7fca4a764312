"""The cost limits the API server puts on CEL evaluation (K8S_CEL.md §4.2), and where costs saturate."""

PER_CALL_LIMIT = 1_000_000  # one evaluation of one rule
OBJECT_BUDGET = 10_000_000  # every rule evaluated for one object, together
MAX_COST = 2**64 - 1  # cel-go's costs saturate here
