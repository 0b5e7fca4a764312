"""SchemaStore: GVK -> resolved schemas from an ordered list of sources, parsed lazily and cached on disk.

Sources are searched in DESIGN.md order: explicit paths (``--crds``, config), ``WMAPLINT_SCHEMA_PATH``, the
user cache (``schemas add``/``pull``), each file of which may serve a kind; the schema bundle shipped in the
package serves a kind only when none of them does. A file whose content is a bundled source (a pulled file) is
read in its pre-parsed bundled form; any other file is parsed once and kept pre-parsed in the user cache.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from wmaplint import memo
from wmaplint.dataclass import dataclass, field
from wmaplint.diagnostics import BUNDLED_SCHEMAS, CACHED_SCHEMAS
from wmaplint.schema.bundle import Bundle, BundledSource, BundleError, forget_bundle, shipped_bundle
from wmaplint.schema.cache import ParsedCache
from wmaplint.schema.errors import SchemaError
from wmaplint.schema.loader import GVK, ParsedFile, parse_bytes
from wmaplint.schema.raw import RawSchema, definitions
from wmaplint.schema.sources import expand, ordered_sources, parsed_cache_dir, user_dir, user_schema_dir
from wmaplint.schema.types import SchemaType
from wmaplint.source.reading import InputError, read_bytes

if TYPE_CHECKING:
    from wmaplint.source.plain import Json

T = TypeVar("T")

# parsed files shared by every store in the process, by digest
_MEMO: dict[str, ParsedFile] = memo.kept(__name__, "_MEMO", {}, pure=True)
_RAW_MEMO: dict[str, dict[str, Any]] = memo.kept(__name__, "_RAW_MEMO", {}, pure=True)


class ResolvedSchema:
    """The schema one source gives for one GVK.

    ``source`` names the source as findings cite it: the user's path as given, or a path relative to ``base``
    (``BUNDLED_SCHEMAS``: the lock path of a bundled source; ``CACHED_SCHEMAS``: a path in the user schema
    dir). ``file`` is the file on disk, None for a bundled source."""

    __slots__ = ("gvk", "source", "type", "sha256", "base", "file", "_store")

    def __init__(self, gvk: GVK, source: str, type: SchemaType, sha256: str, store: SchemaStore,
                 base: str | None = None, file: str | None = None) -> None:
        self.gvk = gvk
        self.source = source
        self.type = type
        self.sha256 = sha256
        self.base = base
        self.file = file if file is not None or base == BUNDLED_SCHEMAS else source
        self._store = store

    @property
    def label(self) -> str:
        """``bundled schema crds/ray.io/rayjob_v1.yaml``, ``cached schema added/x.yaml`` or the user's
        path."""
        return source_label(self.source, self.base)

    @property
    def raw(self) -> dict[str, Json]:
        """The openAPIV3Schema (or OpenAPI component) dict, ``$ref``s left as they are. Shared: never change
        it."""
        raw = self._store._raw_payload(self.sha256, self.file)["raws"].get(self.gvk)
        return raw if isinstance(raw, dict) else {}

    def resolve_ref(self, ref: str) -> RawSchema | None:
        """The schema a ``$ref`` of ``raw`` points at, None when it names none (a ``RefResolver``)."""
        return definitions(self._store._raw_payload(self.sha256, self.file)["components"])(ref)

    def __repr__(self) -> str:
        return f"ResolvedSchema({self.gvk!r}, {self.label!r})"


def source_label(source: str, base: str | None) -> str:
    """How messages name a schema source: never a path of this machine for bundled or cached schemas."""
    if base == BUNDLED_SCHEMAS:
        return f"bundled schema {source}"
    if base == CACHED_SCHEMAS:
        return f"cached schema {source}"
    return source


@dataclass(slots=True)
class _File:
    path: str
    name: str  # as findings cite it (relative to the user schema dir for cached files)
    base: str | None = None
    sha256: str | None = None
    gvks: list[GVK] | None = None
    declared: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    # kinds the file was found not to name: asked again, it is not read, nor even looked at (a store's answers
    # hold for its life, as the GVKs of a file that serves some do)
    unnamed: set[str] = field(default_factory=set)

    @property
    def label(self) -> str:
        return source_label(self.name, self.base)


class SchemaStore:
    """``sources``: files and directories searched in order; ``cache_dir``: the parsed-schema cache
    ("default": the user's, None: none); ``bundle``: the bundle serving kinds no source serves ("default":
    the shipped one, None: none); files below ``cached_root`` (the user schema dir) are cited relative to it.
    """

    def __init__(self, sources: Iterable[str | Path], cache_dir: str | Path | None = "default",
                 env: Mapping[str, str] | None = None, bundle: Bundle | Literal["default"] | None = "default",
                 cached_root: str | Path | None = None) -> None:
        self.sources: list[str] = [str(s) for s in sources]
        root = parsed_cache_dir(env) if cache_dir == "default" else (Path(cache_dir) if cache_dir else None)
        self._cache = ParsedCache(root, base=user_dir(env) if cache_dir == "default" else None)
        self.bundle: Bundle | None = shipped_bundle() if isinstance(bundle, str) else bundle
        self._cached_root = os.path.abspath(cached_root) if cached_root is not None else None
        self._index = self._cache.load_index()
        self._index_dirty = False
        self._files: list[_File] | None = None
        self._errors: list[SchemaError] = []
        self._reported: set[str] = set()
        self._found: dict[GVK, tuple[ResolvedSchema, ...]] = {}

    # -- public -------------------------------------------------------------------------------

    def lookup(self, group: str, version: str, kind: str) -> list[ResolvedSchema]:
        """Every source file serving the GVK, in order; the bundle's sources only when no file does. Found
        once per store: a check asks for the Pod and its root kind once per definition, the language server
        on every change."""
        gvk = (group, version, kind)
        found = self._found.get(gvk)
        if found is None:
            found = self._found[gvk] = tuple(self._lookup(gvk))
        return list(found)

    def _lookup(self, gvk: GVK) -> list[ResolvedSchema]:
        out = []
        for f in self._all_files():
            if not self._may_serve(f, gvk[2]):
                continue
            if gvk in (f.gvks or ()):
                t = self._type(f, gvk)
                if t is not None:
                    out.append(ResolvedSchema(gvk, f.name, t, f.sha256 or "", self, f.base, f.path))
        self._flush_index()
        if not out:
            for source in self._bundled(gvk):
                t = self._bundled_type(source, gvk)
                if t is not None:
                    out.append(ResolvedSchema(gvk, source.file, t, source.sha256, self, BUNDLED_SCHEMAS))
        return out

    def gvks(self) -> list[GVK]:
        return sorted({gvk for gvk, _, _, _ in self.rows()})

    def versions_of(self, group: str, kind: str) -> list[tuple[str, str]]:
        """(version, source label) for every declared version of group/kind, served or not, the bundle's
        included."""
        out = []
        for f in self._all_files():
            if self._may_serve(f, kind):
                for v in f.declared.get((group, kind), []):
                    out.append((v, f.label))
        self._flush_index()
        for source in self._bundle_sources():
            for v in source.declared.get((group, kind), []):
                out.append((v, source_label(source.file, BUNDLED_SCHEMAS)))
        return out

    def rows(self) -> list[tuple[GVK, list[str], str, str | None]]:
        """(GVK, served versions of that group/kind in the same source, source, base) for ``schemas list``:
        the bundle's rows are those of GVKs that no file serves."""
        out = []
        for f in self._all_files():
            self._may_serve(f, None)
            for g in f.gvks or ():
                versions = [v for (gg, v, k) in f.gvks or () if gg == g[0] and k == g[2]]
                out.append((g, versions, f.name, f.base))
        self._flush_index()
        served = {row[0] for row in out}
        for source in self._bundle_sources():
            for g in source.gvks:
                if g not in served:
                    versions = [v for (gg, v, k) in source.gvks if gg == g[0] and k == g[2]]
                    out.append((g, versions, source.file, BUNDLED_SCHEMAS))
        return out

    @property
    def errors(self) -> list[SchemaError]:
        """Problems of the sources looked at so far (missing paths, broken files, a damaged bundle)."""
        return list(self._errors)

    def prepare(self, path: str | Path, data: bytes | None = None, parsed: ParsedFile | None = None) -> None:
        """Keep the pre-parsed form of a schema file (``schemas add``/``pull``), so that no later run parses
        it: its index entry, and unless the bundle holds the same content, its types and raw dicts in the
        cache. ``data``/``parsed``: the file's bytes and parse result when the caller has them."""
        f = _File(str(path), str(path))
        if data is not None and parsed is not None:
            f.sha256 = hashlib.sha256(data).hexdigest()
            if self._bundle_by_sha(f.sha256) is None:
                self._keep(f.sha256, parsed)
                _MEMO[f.sha256] = parsed  # the whole parse, not the meta record just written
        self._may_serve(f, None, data)
        sha = f.sha256 or ""
        # The process may have met this content before in a form without types or raw dicts (read back from
        # another store's cache): this cache must still end up holding the whole parse.
        if (sha and self._cache.root is not None and self._bundle_by_sha(sha) is None
                and self._cache.load_meta(sha) is None):
            try:
                whole = parse_bytes(data if data is not None else read_bytes(f.path), f.name)
            except InputError as exc:
                self._error(SchemaError(f"cannot read schema source: {exc.reason}", f.label))
            else:
                self._keep(sha, whole)
        self._flush_index()

    # -- internals ----------------------------------------------------------------------------

    def _all_files(self) -> list[_File]:
        if self._files is None:
            files: list[_File] = []
            for src in self.sources:
                if not os.path.exists(src):
                    self._error(SchemaError(f"schema source does not exist: {src}", src))
                    continue
                files.extend(self._file(str(p)) for p in expand(src))
            self._files = files
        return self._files

    def _file(self, path: str) -> _File:
        if self._cached_root is not None:
            full = os.path.abspath(path)
            if full.startswith(self._cached_root + os.sep):
                return _File(path, Path(os.path.relpath(full, self._cached_root)).as_posix(), CACHED_SCHEMAS)
        return _File(path, path)

    def _may_serve(self, f: _File, kind: str | None, data: bytes | None = None) -> bool:
        """Fill f.gvks from the index or by parsing; False when the file cannot serve ``kind``."""
        if f.gvks is not None:
            return True
        if kind in f.unnamed:
            return False
        try:
            st = os.stat(f.path)
        except OSError as exc:
            self._error(SchemaError(f"cannot read schema source: {exc.strerror}", f.label))
            f.gvks = []
            return False
        key = os.path.abspath(f.path)
        entry = self._index.get(key)
        if isinstance(entry, list) and len(entry) == 5 and entry[:2] == [st.st_mtime_ns, st.st_size]:
            f.sha256 = entry[2]
            f.gvks = [tuple(g) for g in entry[3]]
            f.declared = {tuple(k.split("\0", 1)): v for k, v in entry[4].items()}
            return True
        mention_key = "mentions\0" + key
        known = self._index.get(mention_key)
        if (kind is not None and isinstance(known, list) and len(known) == 3
                and known[:2] == [st.st_mtime_ns, st.st_size] and kind not in known[2]):
            f.unnamed.add(kind)
            return False  # the index already says this file never names the kind: no read at all
        if data is None:
            try:
                data = read_bytes(f.path)
            except InputError as exc:
                self._error(SchemaError(f"cannot read schema source: {exc.reason}", f.label))
                f.gvks = []
                return False
        if kind is not None:
            mentioned = _mentioned_kinds(data)
            self._index[mention_key] = [st.st_mtime_ns, st.st_size, sorted(mentioned)]
            self._index_dirty = True
            if kind not in mentioned:
                f.unnamed.add(kind)
                return False  # cannot declare this kind; index it later if someone asks for everything
        f.sha256 = hashlib.sha256(data).hexdigest()
        parsed = self._parse(f, data)
        f.gvks = list(parsed.types)
        f.declared = parsed.declared_versions
        if parsed.errors:  # not indexed: every run reads it again to report its problems (from the cache)
            return True
        self._index[key] = [st.st_mtime_ns, st.st_size, f.sha256, [list(g) for g in f.gvks],
                            {"\0".join(k): v for k, v in f.declared.items()}]
        self._index_dirty = True
        return True

    def _parse(self, f: _File, data: bytes | None = None) -> ParsedFile:
        """The file's parse result; its ``types`` may hold ``None`` for GVKs not loaded yet. The pre-parsed
        forms (bundle, user cache) come first: YAML is parsed only for a file seen for the first time."""
        sha = f.sha256 or ""
        parsed = _MEMO.get(sha)
        if parsed is not None and sha not in self._reported:
            self._keep_parsed_elsewhere(sha, parsed)
        parsed = parsed or self._bundled_meta(f) or self._cache.load_meta(sha)
        if parsed is None:
            if data is None:
                data = read_bytes(f.path)
            parsed = parse_bytes(data, f.name)
            self._keep(sha, parsed)
        _MEMO[sha] = parsed
        if sha not in self._reported:
            self._reported.add(sha)
            for e in parsed.errors:
                self._error(SchemaError(e.message, f.label, e.line, e.column))
        return parsed

    def _keep(self, sha: str, parsed: ParsedFile) -> None:
        """Store a fresh parse result in the user cache, raw dicts included (``tree`` and ``test`` read
        them)."""
        self._cache.store_types(sha, parsed)
        if parsed.raws or parsed.components:
            _RAW_MEMO[sha] = {"raws": parsed.raws, "components": parsed.components}
            self._cache.store_raw(sha, parsed.raws, parsed.components)

    def _keep_parsed_elsewhere(self, sha: str, parsed: ParsedFile) -> None:
        """A file another store of this process parsed (the memo is the process's, each store has its own
        disk cache): its parse result is kept in this store's cache too when that cache lacks it, as if
        this store had parsed it. A memo entry read from a cache holds no raw dicts and is not kept."""
        if (self._cache.root is not None and (parsed.raws or parsed.components)
                and self._bundle_by_sha(sha) is None and self._cache.load_meta(sha) is None):
            self._keep(sha, parsed)

    def _type(self, f: _File, gvk: GVK) -> SchemaType | None:
        try:
            parsed = self._parse(f)
        except InputError as exc:
            self._error(SchemaError(f"cannot read schema source: {exc.reason}", f.label))
            return None
        if gvk not in parsed.types:
            return None
        t = parsed.types[gvk]
        if t is None:
            bundled = self._bundle_by_sha(f.sha256 or "")
            if bundled is not None:
                t = self._bundled_type(bundled, gvk)
            else:
                t = self._cache.load_type(f.sha256 or "", gvk)
            if t is None:  # corrupt or missing entry: parse the file again and rewrite the cache
                _MEMO.pop(f.sha256 or "", None)
                try:
                    parsed = parse_bytes(read_bytes(f.path), f.name)
                except InputError as exc:
                    self._error(SchemaError(f"cannot read schema source: {exc.reason}", f.label))
                    return None
                self._keep(f.sha256 or "", parsed)
                _MEMO[f.sha256 or ""] = parsed
                t = parsed.types.get(gvk)
            else:
                parsed.types[gvk] = t
        return t

    def _raw_payload(self, sha: str, path: str | None) -> dict[str, Any]:
        payload = _RAW_MEMO.get(sha)
        if payload is None:
            bundled = self._bundle_by_sha(sha)
            if bundled is not None:
                payload = self._bundle_call(lambda b: b.payload(bundled))
            else:
                payload = self._cache.load_raw(sha)
        if payload is None and path is not None:
            try:
                parsed = parse_bytes(read_bytes(path), path)
            except InputError:
                return {"raws": {}, "components": {}}
            payload = {"raws": parsed.raws, "components": parsed.components}
            self._cache.store_raw(sha, parsed.raws, parsed.components)
        if payload is None:
            return {"raws": {}, "components": {}}
        _RAW_MEMO[sha] = payload
        return payload

    # -- the bundle ---------------------------------------------------------------------------

    def _bundle_sources(self) -> list[BundledSource]:
        return self._bundle_call(lambda b: b.sources) or []

    def _bundled(self, gvk: GVK) -> list[BundledSource]:
        return self._bundle_call(lambda b: b.serving(gvk)) or []

    def _bundle_by_sha(self, sha: str) -> BundledSource | None:
        return self._bundle_call(lambda b: b.by_sha256(sha))

    def _bundled_type(self, source: BundledSource, gvk: GVK) -> SchemaType | None:
        return self._bundle_call(lambda b: b.type(source, gvk))

    def _bundled_meta(self, f: _File) -> ParsedFile | None:
        """A file whose content is a bundled source: its GVKs from the bundle (types loaded on demand)."""
        source = self._bundle_by_sha(f.sha256 or "")
        if source is None:
            return None
        return ParsedFile(f.name, source.format, dict.fromkeys(source.gvks),
                          declared_versions={k: list(v) for k, v in source.declared.items()})

    def _bundle_call(self, read: Callable[[Bundle], T]) -> T | None:
        """``read(bundle)``; a damaged bundle is reported once and then treated as absent."""
        if self.bundle is None:
            return None
        try:
            return read(self.bundle)
        except BundleError as exc:
            self._error(exc)
            self.bundle = None
            return None

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


class Schemas(Protocol):
    """What the rules and analyses read of a schema store: the schemas serving a kind, the versions declared
    of it, and the sources that could not be used. ``SchemaStore`` is the one implementation; tests may pass
    another."""

    def lookup(self, group: str, version: str, kind: str) -> list[ResolvedSchema]: ...

    def versions_of(self, group: str, kind: str) -> list[tuple[str, str]]: ...

    @property
    def errors(self) -> list[SchemaError]: ...


def default_store(explicit_paths: list[str], env: Mapping[str, str] | None = None) -> SchemaStore:
    """A new store over the default sources: explicit paths, WMAPLINT_SCHEMA_PATH, the user schema dir, the
    bundle. A run takes ``shared_store``'s instead, so that every command sees the same one."""
    return SchemaStore(ordered_sources(explicit_paths, env), env=env, cached_root=user_schema_dir(env))


# The one store per set of sources and cache directories in the process: `check`, `tree`, `test`, `new` and
# the language server all take theirs here, so they read the same parsed schemas and report a source once.
_SHARED: dict[tuple[tuple[str, ...], str, str], SchemaStore] = memo.kept(__name__, "_SHARED", {})


def shared_store(explicit_paths: Iterable[str] = (), env: Mapping[str, str] | None = None) -> SchemaStore:
    """The store of a run over ``explicit_paths`` and the default sources (``default_store``), built once per
    process for the sources and cache directories these resolve to now."""
    explicit = [str(p) for p in explicit_paths]
    key = (tuple(ordered_sources(explicit, env)), str(parsed_cache_dir(env)), str(user_schema_dir(env)))
    store = _SHARED.get(key)
    if store is None:
        store = _SHARED[key] = default_store(explicit, env)
    return store


def forget_shared_stores() -> None:
    """Drop the stores ``shared_store`` built (the next call builds new ones); for tests and long-lived
    servers."""
    _SHARED.clear()


def forget_parsed() -> None:
    """Drop the in-process parse results and bundle reads (the disk cache stays); for tests and long-lived
    servers."""
    _MEMO.clear()
    _RAW_MEMO.clear()
    forget_bundle()
