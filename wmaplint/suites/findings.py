"""What running definition test suites finds: a case that fails, a suite that cannot be run. The suite rules
(``wmaplint.rules.suites``) report them."""

from __future__ import annotations

from wmaplint.dataclass import dataclass
from wmaplint.diagnostics import RelatedLocation
from wmaplint.findings import FileFinding


@dataclass(frozen=True, slots=True, eq=False)
class CaseFailed(FileFinding):
    """Case ``name`` resolves differently from its expectations (``detail``: the differences, or why it could
    not run); ``related`` points at the findings of its manifest."""

    name: str
    detail: str
    related: tuple[RelatedLocation, ...] = ()


@dataclass(frozen=True, slots=True, eq=False)
class SuiteInvalid(FileFinding):
    """A suite file cannot be read or has the wrong shape: ``error`` says why, in one line."""

    error: str
