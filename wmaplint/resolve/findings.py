"""What resolving manifests with a definition finds: each kind of finding, with what its rule words.

A finding about the definition stands at the expression or field it is about, in the definition's file; a
finding about the input (no definition for a kind, a document over the limits) stands in the manifest's file.
The resolution rules (``wmaplint.rules.resolution``) report them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wmaplint.dataclass import dataclass
from wmaplint.diagnostics import RelatedLocation
from wmaplint.findings import FileFinding

if TYPE_CHECKING:
    from decimal import Decimal

# -- evaluating an expression ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class ExpressionFailed(FileFinding):
    """An expression (``program``: its text as run) fails on a document. ``what`` names its place as a reader
    does ("replicasPath of worker", "status expression"); ``error`` is the runtime's message."""

    what: str
    program: str
    error: str


@dataclass(frozen=True, slots=True, eq=False)
class EvaluationFailed(ExpressionFailed):
    """The runtime raises an error while evaluating the expression."""


@dataclass(frozen=True, slots=True, eq=False)
class BuiltinNotAllowed(ExpressionFailed):
    """The expression calls a builtin the workload runtime does not offer."""


@dataclass(frozen=True, slots=True, eq=False)
class LimitExceeded(ExpressionFailed):
    """The evaluation passes the runtime's output or time bound."""


@dataclass(frozen=True, slots=True, eq=False)
class NoRootComponent(FileFinding):
    """The definition has no rootComponent to resolve a manifest with."""


# -- instances and their pods ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class OutputCountMismatch(FileFinding):
    """A spec or scale path (``field``) of ``component`` gives ``outputs`` outputs for ``instances``
    instances."""

    field: str
    component: str
    outputs: int
    instances: int


@dataclass(frozen=True, slots=True, eq=False)
class FragmentCountMismatch(FileFinding):
    """The fragments of ``component`` give ``pods`` pod definitions; ``ids`` is how many instance ids its
    instanceIdPath gives, None for a component without one (which has exactly one)."""

    component: str
    pods: int
    ids: int | None


@dataclass(frozen=True, slots=True, eq=False)
class FragmentMisaligned(FileFinding):
    """Fragment ``field`` of ``component`` gives ``outputs`` outputs where other fragments give ``width``."""

    field: str
    component: str
    outputs: int
    width: int


@dataclass(frozen=True, slots=True, eq=False)
class NotACount(FileFinding):
    """Scale path ``field`` of ``component`` gives ``value`` for instance ``index``, which the runtime does
    not read as a replica count. ``reason``: ``infinite`` or ``nan`` (such numbers), ``range`` (a number or
    numeric string that is negative, fractional or beyond int32), ``type`` (not a number at all)."""

    field: str
    component: str
    value: Any
    index: int
    reason: str


@dataclass(frozen=True, slots=True, eq=False)
class InvalidInstanceId(FileFinding):
    """instanceIdPath of ``component`` gives ``value`` at ``index``: null, empty or not a scalar."""

    component: str
    value: Any
    index: int


@dataclass(frozen=True, slots=True, eq=False)
class SpecNotObject(FileFinding):
    """The pod definition of ``component``'s instance ``index`` is ``value``, not an object."""

    component: str
    index: int
    value: Any


@dataclass(frozen=True, slots=True, eq=False)
class InvalidQuantity(FileFinding):
    """A pod of ``component`` (its instance ``instance``, by id or index) asks for an amount that is not a
    quantity: ``problem`` says which and why."""

    component: str
    instance: str
    problem: str


@dataclass(frozen=True, slots=True, eq=False)
class InvalidReferencedQuantity(FileFinding):
    """The object ``component`` names (a TrainJob's runtime) asks for an amount that is not a quantity."""

    component: str
    problem: str


# -- pods ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class PodUnattributed(FileFinding):
    """No component of workload ``kind`` ``name`` claims ``pod``."""

    pod: str
    kind: str
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class PodInstanceUnknown(FileFinding):
    """``pod`` names instance ``instance`` of ``component``, which has only the ids ``known``."""

    pod: str
    instance: str
    component: str
    known: tuple[str, ...]


@dataclass(frozen=True, slots=True, eq=False)
class PodClaimedTwice(FileFinding):
    """The type selectors of several leaf components (``claimed_by``, in the runtime's order) claim
    ``pod``."""

    pod: str
    claimed_by: tuple[str, ...]


@dataclass(frozen=True, slots=True, eq=False)
class SelectorNotSingle(FileFinding):
    """Selector ``selector`` ("componentInstanceSelector.idPath") of ``component`` gives ``count`` non-empty
    values on ``pod``."""

    selector: str
    component: str
    count: int
    pod: str


# -- gangs -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class GangMemberUnknown(FileFinding):
    """A pod group member or sub-group names ``component``, which the definition does not have."""

    component: str


@dataclass(frozen=True, slots=True, eq=False)
class PodGroupEmpty(FileFinding):
    """Every pod of PodGroup ``group`` (as KAI names it) computes min-available 0: its member ``member`` has
    no scale on the manifest. ``native``: the grouper of KAI's own that takes the kind first ("" when
    none)."""

    group: str
    member: str
    native: str = ""


# -- the PodGroups KAI's Karta grouper makes (wmaplint.resolve.grouper, judged in wmaplint.resolve.gang) ---


@dataclass(frozen=True, slots=True, eq=False)
class PodGroupMinAvailableDiffers(FileFinding):
    """The pods of PodGroup ``group`` of workload ``workload`` compute different min-available: ``computed``
    says which pods compute which (and from which member and instance); ``pods``: "synthesized" or
    "listed"; ``native`` as above."""

    group: str
    workload: str
    computed: tuple[str, ...]
    pods: str
    native: str = ""


@dataclass(frozen=True, slots=True, eq=False)
class PodGroupNeverFills(FileFinding):
    """Every pod of PodGroup ``group`` computes min-available ``min_available`` (of member ``member``), but
    only ``count`` pods of the workload take that PodGroup (``split``: how the keys split the pods)."""

    group: str
    workload: str
    min_available: int
    count: int
    member: str
    split: str
    native: str = ""


@dataclass(frozen=True, slots=True, eq=False)
class GangKeyNotAName(FileFinding):
    """KAI fails for pods (``pods``, ``count`` in all) at a groupByKeyPaths entry: the path gives no value,
    several, an empty one, or values that make no valid PodGroup name (``error``: KAI's words)."""

    error: str
    pods: tuple[str, ...]
    count: int
    native: str = ""


@dataclass(frozen=True, slots=True, eq=False)
class PodNotGrouped(FileFinding):
    """KAI fails for pods (``pods``, ``count`` in all) before they have a PodGroup: no component claims them,
    no member takes them, their instance is not found or a scale cannot be read (``cause``, ``error``: KAI's
    words)."""

    cause: str
    error: str
    pods: tuple[str, ...]
    count: int
    native: str = ""


@dataclass(frozen=True, slots=True, eq=False)
class PodGroupRejected(FileFinding):
    """KAI refuses the podGroup (v2) for every pod of the workload: a sub-group or topology it rejects
    (``error``: its words)."""

    error: str
    native: str = ""


# -- the input -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class NoDefinition(FileFinding):
    """No definition describes the manifest's kind (``gvk`` as shown: "example.com/v1 Widget")."""

    gvk: str


@dataclass(frozen=True, slots=True, eq=False)
class AmbiguousDefinition(FileFinding):
    """Definitions ``names`` all describe ``gvk``; ``related`` points at each; ``kai``: what KAI's Karta hub
    makes of them (``wmaplint.resolve.kai.hub_choice``)."""

    gvk: str
    names: tuple[str, ...]
    related: tuple[RelatedLocation, ...] = ()
    kai: str = ""


@dataclass(frozen=True, slots=True, eq=False)
class NoDefinitionInFile(FileFinding):
    """A file given as a definition holds no Karta or ResourceInterface document with a root kind."""


@dataclass(frozen=True, slots=True, eq=False)
class TooManyDocuments(FileFinding):
    """The run's manifests pass ``limit`` documents here; this one and the rest are not resolved."""

    limit: int


@dataclass(frozen=True, slots=True, eq=False)
class DocumentTooLarge(FileFinding):
    """A manifest document of ``size`` bytes is over the ``limit`` bytes resolution reads."""

    size: int
    limit: int


@dataclass(frozen=True, slots=True, eq=False)
class TooManyNodes(FileFinding):
    """A manifest document holds more than ``limit`` YAML nodes."""

    limit: int


# -- the pods the controller creates, synthesized (wmaplint.resolve.verify) ----------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class SelectorClaimsNoPod(FileFinding):
    """The type selector of ``component`` claims none of the ``pods`` pods the controller creates for it;
    ``carried`` says what the first of them carries for the keys the selector reads."""

    component: str
    pods: int
    carried: str
    source: str


@dataclass(frozen=True, slots=True, eq=False)
class SelectorClaimsOtherPods(FileFinding):
    """The type selector of ``component`` claims pods the controller creates for ``other`` (``pod``, one
    of them)."""

    component: str
    other: str
    pod: str
    source: str


@dataclass(frozen=True, slots=True, eq=False)
class InstanceSelectorMismatch(FileFinding):
    """The instance selector of ``component`` gives ``given`` (None: no single value) on the pods the
    controller creates for instance ``instance`` (``pod``, one of them)."""

    component: str
    instance: str
    given: str | None
    pod: str
    source: str


# -- the pods kubectl lists, against the prediction (wmaplint.resolve.compare) ----------------------------


@dataclass(frozen=True, slots=True, eq=False)
class PodCountDiffers(FileFinding):
    """``component`` (its instance ``instance``, "" for every instance) is predicted ``predicted`` pods and
    claims ``listed`` of the pod list; ``which`` names pods missing or extra when they can be told."""

    component: str
    instance: str
    predicted: int
    listed: int
    which: str


@dataclass(frozen=True, slots=True, eq=False)
class GpuTotalDiffers(FileFinding):
    """Workload ``kind`` ``name`` is predicted ``predicted`` GPUs; its listed pods ask for ``listed``."""

    kind: str
    name: str
    predicted: Decimal
    listed: Decimal
