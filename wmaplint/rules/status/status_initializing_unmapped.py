"""WM414 status-initializing-unmapped: the controller reports a start that no matcher maps to initializing.

Only a start the controller writes counts: a phase value or a condition type named for it. A workload whose
controller has not written any status yet reads Undefined by design (upstream keeps such states Undefined,
its issues #361/#362, and its recordings of real clusters show them so), and some controllers have no
starting state at all (a RayCluster's state stays empty until it is ready; an InferenceService's Ready is
Unknown, recorded Undefined): for those there is nothing to map and nothing to report.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.controllers.paths import normalise_path
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.examples import POD
from wmaplint.status.coverage import mappings_node, unreported
from wmaplint.status.knowledge import phase_values

if TYPE_CHECKING:
    from wmaplint.controllers import KindModel
    from wmaplint.rules.context import DefinitionContext

# Names of a start, as controllers spell their phases and condition types (compared without case).
STARTING = re.compile(
    r"(pending|initiali[sz]ing|starting|creating|created|deploying|scheduling|queued|inqueue|waiting|"
    r"waitfor.*|inprogress|progressing)",
    re.IGNORECASE,
)

RULE = define(
    "WM414",
    "status-initializing-unmapped",
    "info",
    "The controller reports a start (a phase or condition) that no matcher maps to initializing.",
    why="A controller that writes a starting phase (Pending, Initializing, ...) or condition (Created, "
    "Progressing, ...) lets a platform show progress and notice a stuck start; without an initializing "
    "matcher for it such a workload reads Undefined, like one whose status is unknown. A workload whose "
    "controller has not written any status yet reads Undefined by design (upstream keeps such states "
    "Undefined, its issues #361/#362, and its recordings of real clusters show them so), and a controller "
    "without a starting state leaves nothing to map: neither is reported. Starting phases and conditions "
    "come from the controller model (schemas/controllers/) and the CRD's phase enum.",
    bad=POD.replace("          initializing: [{byPhase: Pending}]\n", ""),
    good=POD,
    fix="Map initializing from the phase value or condition the message names (e.g. byPhase: Pending); "
    "do not match missing status fields, which stay Undefined.",
)


def starting_signals(
    ctx: DefinitionContext, model: KindModel | None, phase_path: str | None
) -> list[str]:
    """The starting phase values and condition types the controller writes, in words (``.status.phase
    'Pending'``, ``condition Created``). Where the release in use is not known, only those every release read
    writes: a start of older releases only (RayService's WaitForServeDeploymentReady before KubeRay v1.3)
    is no start of the release that runs."""
    found = []
    status = model.status if model is not None else None
    settled = model is None or model.at_release is not None
    paths = dict.fromkeys(status.phases if status is not None else ())
    if phase_path is not None:
        paths.setdefault(normalise_path(phase_path))
    for path in paths:
        values, _ = phase_values(model, path, ctx.root_schema_types)
        phase = model.phase(path) if model is not None else None
        ranged = dict(phase.value_releases) if phase is not None and not settled else {}
        starts = [v for v in values if v and STARTING.fullmatch(v) and v not in ranged]
        if starts:
            found.append(f"{path} {' or '.join(repr(v) for v in starts)}")
    if status is not None:
        found.extend(f"condition {ctype}" for ctype, fact in status.conditions.items()
                     if STARTING.fullmatch(ctype) and (settled or fact.releases.always))
    return found


@definition_check(RULE)
def initializing_unmapped(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    found = unreported(ctx.definition, "initializing")
    if found is None:
        return
    status = found[1]
    model = ctx.root_model
    signals = starting_signals(ctx, model, status.phase_path.text if status.phase_path else None)
    if not signals:
        return  # no start the controller writes: Undefined until it reports more is what it shows
    setter = model.gvk() if model else "the workload's controller"
    starts = "; ".join(signals)
    yield ctx.diag(RULE, mappings_node(status),
                   f"no matcher reports initializing, though {setter} reports a start ({starts}): such a "
                   "workload reads Undefined; map initializing from it (objects whose controller has not "
                   "written any status yet stay Undefined, as upstream keeps them)")
