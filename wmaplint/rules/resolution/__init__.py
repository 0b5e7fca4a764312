"""What resolving manifests into workload trees finds (WM70x-WM74x)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from wmaplint.diagnostics import Rule
    from wmaplint.facts import Fact


def consumer(rule: Rule, fact: Fact, message: str) -> Diagnostic:
    """A finding about the PodGroups KAI's Karta grouper makes. Where KAI groups the kind with a grouper of
    its own, which it asks first (``native``, kai-scheduler/KAI-Scheduler@d5bc503 pkg/podgrouper/podgrouper/
    hub/hub.go GetPodGrouperPlugin), the Karta grouper never reads the gang: a warning that says so."""
    native: str = getattr(fact, "native", "")
    if not native:
        return fact.diagnostic(rule, message)
    found = fact.diagnostic(rule, f"{message}; KAI groups {native}, asked before the Karta grouper (hub.go "
                                  "GetPodGrouperPlugin), so this holds only where that grouper is absent")
    found.severity = min(found.severity, Severity.WARNING)
    return found


def pods_shown(pods: tuple[str, ...], count: int) -> str:
    """``pod a``, ``pods a, b``, ``3 pods (a, b, ...)``: the pods a finding is about."""
    if count == 1 and pods:
        return f"pod {pods[0]}"
    names = ", ".join(pods) + (", ..." if count > len(pods) else "")
    return f"{count} pods ({names})"
