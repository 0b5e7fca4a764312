"""SchemaStore: GVK -> resolved schemas from an ordered list of sources, parsed lazily and cached on disk."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wmaplint.schema.cache import ParsedCache
from wmaplint.schema.errors import SchemaError
from wmaplint.schema.loader import GVK, ParsedFile, parse_bytes
from wmaplint.schema.sources import expand, ordered_sources, parsed_cache_dir
from wmaplint.schema.types import SchemaType

# parsed files shared by every store in the process, by digest
_MEMO: dict[str, ParsedFile] = {}
_RAW_MEMO: dict[str, dict[str, Any]] = {}


class ResolvedSchema:
    """The schema one source gives for one GVK."""

    __slots__ = ("gvk", "source", "type", "sha256", "_store")

    def __init__(self, gvk: GVK, source: str, type: SchemaType, sha256: str, store: SchemaStore) -> None:
        self.gvk = gvk
        self.source = source
        self.type = type
        self.sha256 = sha256
        self._store = store

    @property
    def raw(self) -> dict[str, Any]:
        """The openAPIV3Schema (or OpenAPI component) dict, ``$ref``s left as they are."""
        raw = self._store._raw_payload(self.sha256, self.source)["raws"].get(self.gvk)
        return raw if isinstance(raw, dict) else {}

    def resolve_ref(self, ref: str) -> dict[str, Any]:
        """The dict a ``$ref`` points at; raises SchemaError when it does not resolve."""
        comps = self._store._raw_payload(self.sha256, self.source)["components"]
        for prefix in ("#/components/schemas/", "#/definitions/"):
            if ref.startswith(prefix) and isinstance(comps.get(ref[len(prefix):]), dict):
                return comps[ref[len(prefix):]]
        raise SchemaError(f"unresolvable $ref {ref!r}", self.source)

    def __repr__(self) -> str:
        return f"ResolvedSchema({self.gvk!r}, {self.source!r})"


@dataclass(slots=True)
class _File:
    path: str
    sha256: str | None = None
    gvks: list[GVK] | None = None
    declared: dict[tuple[str, str], list[str]] = field(default_factory=dict)


class SchemaStore:
    def __init__(self, sources: Iterable[str | Path], cache_dir: str | Path | None = "default",
                 env: Mapping[str, str] | None = None) -> None:
        self.sources: list[str] = [str(s) for s in sources]
        root = parsed_cache_dir(env) if cache_dir == "default" else (Path(cache_dir) if cache_dir else None)
        self._cache = ParsedCache(root)
        self._index = self._cache.load_index()
        self._index_dirty = False
        self._files: list[_File] | None = None
        self._errors: list[SchemaError] = []
        self._reported: set[str] = set()

    # -- public -------------------------------------------------------------------------------

    def lookup(self, group: str, version: str, kind: str) -> list[ResolvedSchema]:
        gvk = (group, version, kind)
        out = []
        for f in self._all_files():
            if not self._may_serve(f, kind):
                continue
            if gvk in (f.gvks or ()):
                t = self._type(f, gvk)
                if t is not None:
                    out.append(ResolvedSchema(gvk, f.path, t, f.sha256 or "", self))
        self._flush_index()
        return out

    def gvks(self) -> list[GVK]:
        seen: dict[GVK, None] = {}
        for f in self._all_files():
            self._may_serve(f, None)
            for g in f.gvks or ():
                seen.setdefault(g, None)
        self._flush_index()
        return sorted(seen)

    def versions_of(self, group: str, kind: str) -> list[tuple[str, str]]:
        """(version, source) for every declared version of group/kind, served or not."""
        out = []
        for f in self._all_files():
            if self._may_serve(f, kind):
                for v in f.declared.get((group, kind), []):
                    out.append((v, f.path))
        self._flush_index()
        return out

    def rows(self) -> list[tuple[GVK, list[str], str]]:
        """(GVK, served versions of that group/kind in the same file, source) for ``schemas list``."""
        out = []
        for f in self._all_files():
            self._may_serve(f, None)
            for g in f.gvks or ():
                versions = [v for (gg, v, k) in f.gvks or () if gg == g[0] and k == g[2]]
                out.append((g, versions, f.path))
        self._flush_index()
        return out

    @property
    def errors(self) -> list[SchemaError]:
        """Problems of the sources looked at so far (missing paths, broken files)."""
        return list(self._errors)

    # -- internals ----------------------------------------------------------------------------

    def _all_files(self) -> list[_File]:
        if self._files is None:
            files: list[_File] = []
            for src in self.sources:
                if not os.path.exists(src):
                    self._error(SchemaError(f"schema source does not exist: {src}", src))
                    continue
                files.extend(_File(str(p)) for p in expand(src))
            self._files = files
        return self._files

    def _may_serve(self, f: _File, kind: str | None) -> bool:
        """Fill f.gvks from the index or by parsing; False when the file cannot serve ``kind``."""
        if f.gvks is not None:
            return True
        try:
            st = os.stat(f.path)
        except OSError as exc:
            self._error(SchemaError(f"cannot read schema source: {exc.strerror}", f.path))
            f.gvks = []
            return False
        key = os.path.abspath(f.path)
        entry = self._index.get(key)
        if isinstance(entry, list) and len(entry) == 5 and entry[:2] == [st.st_mtime_ns, st.st_size]:
            f.sha256 = entry[2]
            f.gvks = [tuple(g) for g in entry[3]]  # type: ignore[misc]
            f.declared = {tuple(k.split("\0", 1)): v for k, v in entry[4].items()}  # type: ignore[misc]
            return True
        mention_key = "mentions\0" + key
        known = self._index.get(mention_key)
        if (kind is not None and isinstance(known, list) and len(known) == 3
                and known[:2] == [st.st_mtime_ns, st.st_size] and kind not in known[2]):
            return False  # the index already says this file never names the kind: no read at all
        try:
            data = Path(f.path).read_bytes()
        except OSError as exc:
            self._error(SchemaError(f"cannot read schema source: {exc.strerror}", f.path))
            f.gvks = []
            return False
        if kind is not None:
            mentioned = _mentioned_kinds(data)
            self._index[mention_key] = [st.st_mtime_ns, st.st_size, sorted(mentioned)]
            self._index_dirty = True
            if kind not in mentioned:
                return False  # cannot declare this kind; index it later if someone asks for everything
        f.sha256 = hashlib.sha256(data).hexdigest()
        parsed = self._parse(f, data)
        f.gvks = list(parsed.types)
        f.declared = parsed.declared_versions
        self._index[key] = [st.st_mtime_ns, st.st_size, f.sha256, [list(g) for g in f.gvks],
                            {"\0".join(k): v for k, v in f.declared.items()}]
        self._index_dirty = True
        return True

    def _parse(self, f: _File, data: bytes | None = None) -> ParsedFile:
        """The file's parse result; its ``types`` may hold ``None`` for GVKs not loaded from the cache yet."""
        sha = f.sha256 or ""
        parsed = _MEMO.get(sha) or self._cache.load_meta(sha)
        if parsed is None:
            if data is None:
                data = Path(f.path).read_bytes()
            parsed = parse_bytes(data, f.path)
            self._cache.store_types(sha, parsed)
            if parsed.raws:
                _RAW_MEMO[sha] = {"raws": parsed.raws, "components": parsed.components}
        _MEMO[sha] = parsed
        if sha not in self._reported:
            self._reported.add(sha)
            for e in parsed.errors:
                self._error(SchemaError(e.message, f.path, e.line, e.column))
        return parsed

    def _type(self, f: _File, gvk: GVK) -> SchemaType | None:
        try:
            parsed = self._parse(f)
        except OSError as exc:
            self._error(SchemaError(f"cannot read schema source: {exc.strerror}", f.path))
            return None
        if gvk not in parsed.types:
            return None
        t = parsed.types[gvk]
        if t is None:
            t = self._cache.load_type(f.sha256 or "", gvk)
            if t is None:  # corrupt or missing entry: parse the file again and rewrite the cache
                _MEMO.pop(f.sha256 or "", None)
                parsed = parse_bytes(Path(f.path).read_bytes(), f.path)
                self._cache.store_types(f.sha256 or "", parsed)
                _MEMO[f.sha256 or ""] = parsed
                t = parsed.types.get(gvk)
            else:
                parsed.types[gvk] = t
        return t

    def _raw_payload(self, sha: str, path: str) -> dict[str, Any]:
        payload = _RAW_MEMO.get(sha) or self._cache.load_raw(sha)
        if payload is None:
            try:
                parsed = parse_bytes(Path(path).read_bytes(), path)
            except OSError:
                return {"raws": {}, "components": {}}
            payload = {"raws": parsed.raws, "components": parsed.components}
        if sha not in _RAW_MEMO:
            _RAW_MEMO[sha] = payload
            if self._cache.load_raw(sha) is None:
                self._cache.store_raw(sha, payload["raws"], payload["components"])
        return payload

    def _error(self, err: SchemaError) -> None:
        if not any(str(e) == str(err) for e in self._errors):
            self._errors.append(err)

    def _flush_index(self) -> None:
        if self._index_dirty:
            self._cache.store_index(self._index)
            self._index_dirty = False


_KIND_VALUE = re.compile(rb"""["']?kind["']?\s*:\s*["']?([A-Za-z0-9_.-]+)["']?\s*[,}\n\r]""")


def _mentioned_kinds(data: bytes) -> set[str]:
    """Every value a file gives a ``kind`` key: a file can only declare kinds it names (cheap, cached by
    mtime)."""
    return {m.decode("utf-8", "replace") for m in _KIND_VALUE.findall(data)}


def default_store(explicit_paths: list[str], env: Mapping[str, str] | None = None) -> SchemaStore:
    """The store ``check`` uses: explicit paths, WMAPLINT_SCHEMA_PATH, then the user schema dir."""
    return SchemaStore(ordered_sources(explicit_paths, env), env=env)


def forget_parsed() -> None:
    """Drop the in-process parse results (the disk cache stays); for tests and long-lived servers."""
    _MEMO.clear()
    _RAW_MEMO.clear()
