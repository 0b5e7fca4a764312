"""The schema bundle: every source of ``schemas/lock.yaml``, pre-parsed and compressed, shipped in the
package.

One file (``schemas/bundle.bin``, written by ``python -m wmaplint.schema.bundle_build build``): a magic line,
a JSON header line, then zlib-compressed chunks of ``marshal`` data (format 2, which has no object sharing, so
the bytes depend on the content alone). The header lists each source with its lock path, sha256, served and
declared GVKs and where its chunk is. A source's chunk holds the raw schema dicts (each served GVK's
``openAPIV3Schema``, or an OpenAPI document's components) and the position tree of each CRD schema (see
``loader.Where``), whose large subtrees are folded into their marshalled bytes (``bundle_build.folded``: the
trees are most of a chunk, and a lookup reads the positions of the few types it builds). Subtrees that
several places share (the Pod template every framework embeds) are stored once, in the pool: numbered
entries, each marshalled on its own, in chunks of a few dozen; their places hold ``None`` and a patch list
``(path, pool entry)`` says what goes there. Types are built from the raw dicts
lazily (``loader.TypeBuilder``): a lookup decompresses its source and the pool chunks it reaches, unmarshals
the entries it reaches and builds only the members something reads; nothing parses YAML.
"""

from __future__ import annotations

import json
import marshal
import zlib
from bisect import bisect_right
from pathlib import Path
from typing import Any

from wmaplint import memo
from wmaplint.dataclass import dataclass
from wmaplint.schema.errors import SchemaError
from wmaplint.schema.loader import GVK, TypeBuilder
from wmaplint.schema.types import SchemaType
from wmaplint.shipped_data import shipped
from wmaplint.source.nodes import no_cyclic_gc

MAGIC = b"wmaplint schema bundle 3\n"  # 3: folded position trees
BUNDLE_NAME = "bundle.bin"


class BundleError(SchemaError):
    """The bundle file is missing pieces or damaged (a broken installation)."""


@dataclass(frozen=True, slots=True)
class BundledSource:
    file: str  # the lock path, e.g. crds/ray.io/rayjob_v1.yaml: how findings and `schemas list` name it
    sha256: str
    url: str
    format: str  # "crd" or "openapi"
    gvks: tuple[GVK, ...]
    declared: dict[tuple[str, str], list[str]]
    chunk: tuple[int, int]  # offset and length after the header


def unpack(data: bytes | memoryview, compressed: bool = False) -> Any:
    """A marshalled value, zlib-compressed or not; raises BundleError when it is damaged. (zlib, not lzma:
    the bundle is a quarter larger, and a check decompresses its sources three times as fast.)"""
    try:
        return marshal.loads(zlib.decompress(data) if compressed else data)
    except (zlib.error, EOFError, ValueError, TypeError) as exc:
        raise BundleError(f"damaged schema bundle chunk ({exc}); reinstall wmaplint") from None


def patch(value: Any, patches: list[tuple[tuple[Any, ...], int]], entry: Any) -> Any:
    """Put ``entry(i)`` at each patch's path inside ``value`` (paths are never empty)."""
    for path, index in patches:
        target = value
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = entry(index)
    return value


class Bundle:
    """Reader of one bundle file; every piece is read and decompressed when first needed, then kept."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._data: bytes | None = None
        self._body = 0
        self._sources: list[BundledSource] | None = None
        self._pool_firsts: list[int] = []  # number of the first entry of each pool chunk
        self._pool_spans: list[tuple[int, int]] = []
        self._pool: dict[int, list[Any]] = {}  # decompressed pool chunks
        self._entries: dict[int, Any] = {}
        self._payloads: dict[str, dict[str, Any]] = {}
        self._builders: dict[str, TypeBuilder] = {}
        self._types: dict[tuple[str, GVK], SchemaType] = {}

    # -- the header -------------------------------------------------------------------------------

    @property
    def sources(self) -> list[BundledSource]:
        if self._sources is None:
            self._sources = self._read_header()
        return self._sources

    def by_sha256(self, sha256: str) -> BundledSource | None:
        return next((s for s in self.sources if s.sha256 == sha256), None)

    def serving(self, gvk: GVK) -> list[BundledSource]:
        return [s for s in self.sources if gvk in s.gvks]

    def _read_header(self) -> list[BundledSource]:
        try:
            data = self.path.read_bytes()
        except OSError as exc:
            raise BundleError(f"cannot read the schema bundle: {exc.strerror or exc}; reinstall wmaplint") \
                from None
        end = data.find(b"\n", len(MAGIC))
        try:
            if not data.startswith(MAGIC) or end < 0:
                raise ValueError("not a schema bundle")
            header = json.loads(data[len(MAGIC):end])
            self._pool_firsts = [int(first) for first, _, _ in header["pool"]]
            self._pool_spans = [(int(offset), int(length)) for _, offset, length in header["pool"]]
            sources = [
                BundledSource(
                    s["file"], s["sha256"], s["url"], s["format"],
                    tuple((g, v, k) for g, v, k in s["gvks"]),
                    {(g, k): list(vs) for g, k, vs in s["declared"]},
                    (int(s["chunk"][0]), int(s["chunk"][1])),
                )
                for s in header["sources"]
            ]
        except (ValueError, KeyError, TypeError) as exc:
            raise BundleError(f"damaged schema bundle header ({exc}); reinstall wmaplint") from None
        self._data = data
        self._body = end + 1
        return sources

    # -- chunks ---------------------------------------------------------------------------------

    def _chunk(self, span: tuple[int, int]) -> Any:
        if self._data is None:
            self.sources  # noqa: B018 - reads the file and header
        assert self._data is not None
        start = self._body + span[0]
        return unpack(memoryview(self._data)[start:start + span[1]], compressed=True)

    def _entry(self, index: int) -> Any:
        """Pool entry ``index`` with its own patches applied; shared by every place that holds it."""
        found = self._entries.get(index)
        if found is None:
            number = bisect_right(self._pool_firsts, index) - 1
            if number < 0:
                raise IndexError(index)
            chunk = self._pool.get(number)
            if chunk is None:
                chunk = self._pool[number] = self._chunk(self._pool_spans[number])
            blob, patches = chunk[index - self._pool_firsts[number]]
            found = self._entries[index] = patch(unpack(blob), patches, self._entry)
        return found

    def payload(self, source: BundledSource) -> dict[str, Any]:
        """``{"raws": {gvk: schema dict}, "components": {name: schema dict}, "names": {gvk: component name},
        "where": {gvk: position tree}}``: the same dicts for every caller, never to be changed."""
        found = self._payloads.get(source.sha256)
        if found is None:
            # tens of thousands of dicts and lists come to life: collection passes would double the time
            with no_cyclic_gc():
                chunk = self._chunk(source.chunk)
                try:
                    found = patch(chunk, chunk.pop("patches"), self._entry)
                    for gvk, name in found["names"].items():  # an OpenAPI kind's schema is its component
                        found["raws"][gvk] = found["components"][name]
                except (KeyError, IndexError, TypeError, AttributeError, ValueError) as exc:
                    raise BundleError(f"damaged schema bundle chunk ({exc!r}); reinstall wmaplint") from None
            self._payloads[source.sha256] = found
        return found

    def type(self, source: BundledSource, gvk: GVK) -> SchemaType | None:
        """The type of ``gvk`` as ``source`` declares it; its members are built when first read."""
        key = (source.sha256, gvk)
        found = self._types.get(key)
        if found is None:
            payload = self.payload(source)
            raw = payload["raws"].get(gvk)
            if raw is None:
                return None
            builder = self._builders.get(source.sha256)
            if builder is None:
                builder = self._builders[source.sha256] = TypeBuilder(source.file, payload["components"])
            if gvk in payload["names"]:
                found = builder.build({"$ref": "#/components/schemas/" + payload["names"][gvk]})
            else:
                found = builder.build(raw, payload["where"].get(gvk))
            self._types[key] = found
        return found


_SHIPPED: dict[str, Bundle | None] = memo.kept(__name__, "_SHIPPED", {}, pure=True)


def shipped_bundle() -> Bundle | None:
    """The bundle inside the package (one reader per process), or None when the package has none."""
    if "bundle" not in _SHIPPED:
        path = shipped("schemas") / BUNDLE_NAME
        _SHIPPED["bundle"] = Bundle(path) if path.is_file() else None
    return _SHIPPED["bundle"]


def forget_bundle() -> None:
    """Drop what the shipped bundle's reader holds (decompressed chunks, built types)."""
    _SHIPPED.clear()
