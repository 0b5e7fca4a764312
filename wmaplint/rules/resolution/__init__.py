"""What resolving manifests into workload trees finds (WM70x-WM74x)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from wmaplint.diagnostics import Rule
    from wmaplint.findings import FileFinding


def consumer(rule: Rule, finding: FileFinding, message: str) -> Diagnostic:
    """A finding about the PodGroups KAI's Karta grouper makes. Where KAI groups the kind with a grouper of
    its own, which it asks first (``native``, kai-scheduler/KAI-Scheduler@d5bc503 pkg/podgrouper/podgrouper/
    hub/hub.go GetPodGrouperPlugin), the Karta grouper never reads the gang: a warning that says so."""
    native: str = getattr(finding, "native", "")
    if not native:
        return finding.diagnostic(rule, message)
    message = (f"{message}; KAI groups {native}, asked before the Karta grouper (hub.go "
               "GetPodGrouperPlugin), so this holds only where that grouper is absent")
    found = finding.diagnostic(rule, message)
    found.severity = min(found.severity, Severity.WARNING)
    return found


def pods_shown(pods: tuple[str, ...], count: int) -> str:
    """``pod a``, ``pods a, b``, ``3 pods (a, b, ...)``: the pods a finding is about."""
    if count == 1 and pods:
        return f"pod {pods[0]}"
    names = ", ".join(pods) + (", ..." if count > len(pods) else "")
    return f"{count} pods ({names})"
