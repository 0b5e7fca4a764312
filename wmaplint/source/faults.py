"""What the YAML reader finds wrong with a file itself; the document rules (``wmaplint.rules.document``)
report it."""

from __future__ import annotations

from wmaplint.dataclass import dataclass
from wmaplint.diagnostics import Span
from wmaplint.findings import FileFinding


@dataclass(frozen=True, slots=True, eq=False)
class YamlSyntax(FileFinding):
    """The text does not parse: ``problem`` is what the parser says (and where the construct starts)."""

    problem: str


@dataclass(frozen=True, slots=True, eq=False)
class HelmTemplate(FileFinding):
    """The text is a Helm template (``action`` at ``span`` is template syntax); ``chart`` is the chart
    directory when the file lies in one's ``templates/`` folder."""

    action: str
    chart: str | None


@dataclass(frozen=True, slots=True, eq=False)
class DuplicateKey(FileFinding):
    """A mapping repeats ``key``; ``first`` is where it stands the first time."""

    key: str
    first: Span


@dataclass(frozen=True, slots=True, eq=False)
class AliasExpansion(FileFinding):
    """Aliases would make the document larger than ``limit`` nodes."""

    limit: int


@dataclass(frozen=True, slots=True, eq=False)
class DuplicateKeysNotListed(FileFinding):
    """More duplicate keys than a file's faults list one by one: ``count`` more from ``span`` on."""

    count: int
