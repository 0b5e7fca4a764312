"""What the workload's controllers do, from the controller model (``wmaplint.controllers``): the labels they
write on the pods, the objects they create, how a workload suspends, which fields count replicas, the
conditions and phases they set (the 53x range; the byExpression status rules are in the status folder).

Every rule here stays silent where the model does not know (a kind it lacks, a list that is not exhaustive,
a component it cannot match to the pods the controller creates): a finding states a fact of the runtime and
names its source.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wmaplint.controllers import KindModel, WrittenLabel


# the labels a message lists first: those that tell pods apart, before conditional and bookkeeping ones
_ROLE_ORDER = ("workload", "run", "component", "entry", "replica", "revision", "other")


def written(labels: dict[str, WrittenLabel], limit: int = 8) -> str:
    """The keys of ``labels`` for a message, the first ``limit`` of them, those naming the workload, its
    components and entries first."""
    keys = sorted(labels, key=lambda k: (_ROLE_ORDER.index(labels[k].role)
                                         if labels[k].role in _ROLE_ORDER else len(_ROLE_ORDER), k))
    shown = ", ".join(keys[:limit]) + (f" and {len(keys) - limit} more" if len(keys) > limit else "")
    return shown or "none"


def a(word: str) -> str:
    """``word`` with its indefinite article (``an MPIJob``, ``a Job``): an initialism whose first letter is
    said with a vowel (M, N, L...) takes "an" too."""
    vowel = word[:1].upper() in "AEIOU" or (word[:2].isupper() and word[:1] in "FHLMNRSX")
    return f"an {word}" if vowel else f"a {word}"


def source_of(model: KindModel, fact_source: str = "") -> str:
    """Where a fact comes from, for a message: its upstream source and the model file holding it."""
    where = model.where
    if fact_source and where:
        return f"{fact_source}; {where}"
    return fact_source or where
