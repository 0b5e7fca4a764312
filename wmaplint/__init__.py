"""wmaplint: offline static analyzer for Kubernetes workload definitions (kind Karta)."""

from wmaplint import findings as _findings
from wmaplint.version import __version__

__all__ = ["__version__"]


def _load_rules() -> None:
    from wmaplint.rules import load

    load()


# The package root stands above every layer and runs first whatever the entry point: it hands the table of
# wordings at the bottom (wmaplint.findings) the loader of the rule modules at the top, which fill it.
_findings.set_rule_loader(_load_rules)
