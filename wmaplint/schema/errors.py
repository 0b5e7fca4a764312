"""What can be wrong with a schema source: the one exception type the schema package lets out of its public
API, and the finding of a source skipped while validating manifests."""

from __future__ import annotations

from wmaplint.dataclass import dataclass
from wmaplint.findings import FileFinding


class SchemaError(Exception):
    """A schema source that cannot be used as given: unreadable, broken, non-structural, too deep.

    ``file``/``line``/``column`` (1-based) locate the problem when known; the environment rules
    (``wmaplint.rules.environment``) report them.
    """

    def __init__(
        self, message: str, file: str | None = None, line: int | None = None, column: int | None = None
    ) -> None:
        # one line: PyYAML and json put context on extra lines, and every error prints as one line
        message = "; ".join(part.strip() for part in str(message).splitlines() if part.strip()) or "error"
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = self.file + (f":{self.line}" if self.line else "") + ": "
        return where + self.message

    # keep the extra fields through pickle (cached parse results carry errors)
    def __reduce__(self) -> tuple[type[SchemaError], tuple[str, str | None, int | None, int | None]]:
        return (SchemaError, (self.message, self.file, self.line, self.column))


@dataclass(frozen=True, slots=True, eq=False)
class SkippedSource(FileFinding):
    """A schema source the store skipped (``error``: why), found while validating manifests against the
    schemas: the manifests of its kinds are not validated."""

    error: str
