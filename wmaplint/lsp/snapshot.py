"""One version of one open document, parsed once and shared by every feature request."""

from __future__ import annotations

import re
from functools import cached_property

from wmaplint.dataclass import dataclass, field
from wmaplint.definition.model import Definition, build
from wmaplint.engine import objects_of, read_text
from wmaplint.lsp.positions import LspPositions
from wmaplint.source import SourceFile

_DEFINITION_KIND = re.compile(r"""["']?kind["']?\s*:\s*["']?(Karta|ResourceInterface)\b""")


def mentions_definition(text: str) -> bool:
    return _DEFINITION_KIND.search(text) is not None


@dataclass
class Snapshot:
    text: str
    path: str
    is_json: bool = False
    _definitions: list[Definition] | None = field(default=None, repr=False)

    @cached_property
    def index(self) -> LspPositions:
        return LspPositions(self.text)

    @cached_property
    def source(self) -> SourceFile:
        return read_text(self.text, self.path)

    @property
    def definitions(self) -> list[Definition]:
        """Definitions of the documents that parsed (a broken document contributes none), each object of a
        List or a watch on its own, as `check` reads them."""
        if self._definitions is None:
            found = []
            for document in objects_of(self.source):
                try:
                    definition = build(document.root)
                except Exception:  # the model is lenient; an unexpected shape must not break a request
                    definition = None
                if definition is not None:
                    found.append(definition)
            self._definitions = found
        return self._definitions

    def definition_at(self, offset: int) -> Definition | None:
        for definition in self.definitions:
            root = definition.document_node
            if root.start <= offset <= root.end:
                return definition
        return None

    def component_names(self) -> list[str]:
        names: list[str] = []
        for definition in self.definitions:
            names.extend(c.name for c in definition.components if c.name and c.name not in names)
        return names
