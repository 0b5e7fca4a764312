"""wmaplint: offline static analyzer for Kubernetes workload definitions (kind Karta)."""

from wmaplint import facts as _facts
from wmaplint.version import __version__

__all__ = ["__version__"]


def _load_rules() -> None:
    from wmaplint.rules import load

    load()


# The package root stands above every layer and runs first whatever the entry point: it hands the table of
# wordings at the bottom (wmaplint.facts) the loader of the rule modules at the top, which fill it.
_facts.set_rule_loader(_load_rules)
