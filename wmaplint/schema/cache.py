"""On-disk cache of parsed schema files, keyed by the sha256 of the file bytes: data only (JSON), each record
framed with its kind, the format version and the digest of its payload (``wmaplint.cachefiles``).

``types/<sha>/meta.json`` holds the file's served and declared GVKs and the problems found, and one
``<gvk>.types`` record per GVK the type model (with property line numbers) as a compact table (see
``compact``) whose rows are read only when a node is; ``raw/<sha>.json`` the raw schema dicts, written and
read only when someone asks for ``.raw``; ``index.json`` maps a file path (+ mtime and size) to its digest
and GVKs, so a warm run reads no schema file it does not need. A damaged, foreign or ill-shaped record is
ignored and rebuilt; a cache directory someone else can write is not used at all (``cachefiles.refused``).

The cache is bounded: past ``max_bytes`` a write evicts the least recently used digests (a read marks its
entry used by its modification time) down to three quarters of the cap, and the index keeps the most recent
``MAX_INDEX_ENTRIES`` files.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from wmaplint import cachefiles
from wmaplint.schema.compact import encode, from_payload, to_payload
from wmaplint.schema.errors import SchemaError
from wmaplint.schema.loader import ParsedFile
from wmaplint.schema.types import SchemaType

FORMAT_VERSION = 6  # 6: JSON records with a digest (5 and before: pickles and marshal, never read again)
MAX_CACHE_BYTES = 128 * 1024 * 1024  # several dozen large CRDs; the pinned ones are served by the bundle
MAX_INDEX_ENTRIES = 4096
_DIGEST = re.compile(r"[0-9a-f]{64}\Z")


def is_digest(value: object) -> bool:
    """Whether ``value`` is a sha256 in hex: the only text of a record that becomes part of a path."""
    return isinstance(value, str) and _DIGEST.match(value) is not None


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _gvk(value: object) -> bool:
    return isinstance(value, list) and len(value) == 3 and all(isinstance(v, str) for v in value)


def _position(value: object) -> bool:
    return value is None or type(value) is int


class ParsedCache:
    """``root``: the directory of this cache; ``base``: the user's cache directory it lies in (each directory
    from there down must be the user's own; default: ``root``)."""

    def __init__(self, root: Path | None, max_bytes: int = MAX_CACHE_BYTES, base: Path | None = None) -> None:
        self.root = root
        self.max_bytes = max_bytes
        self.base = base if base is not None else root

    def _read(self, path: Path, kind: str) -> Any:
        """The JSON value of the record at ``path``, or None."""
        assert self.base is not None
        payload = cachefiles.read_record(path, kind, FORMAT_VERSION, self.base)
        if payload is None:
            return None
        try:
            return json.loads(payload)
        except (ValueError, RecursionError):
            return None

    def _write(self, path: Path, kind: str, payload: bytes) -> None:
        assert self.base is not None
        cachefiles.write_record(path, kind, FORMAT_VERSION, payload, self.base)

    # -- types: one meta record per file, one type table per GVK (a lookup loads only what it needs) -------

    def load_meta(self, sha: str) -> ParsedFile | None:
        """The file's problems and declared versions; ``types`` maps each served GVK to ``None``."""
        if self.root is None or not is_digest(sha):
            return None
        data = self._read(self._meta_path(sha), "meta")
        parsed = _meta_of(data)
        if parsed is not None:
            _touch(self._meta_path(sha))
        return parsed

    def load_type(self, sha: str, gvk: tuple[str, str, str]) -> SchemaType | None:
        """The GVK's type from its table (each node's members read and built on first access)."""
        if self.root is None or not is_digest(sha):
            return None
        assert self.base is not None
        path = self._type_path(sha, gvk)
        payload = cachefiles.read_record(path, "types", FORMAT_VERSION, self.base)
        if payload is None:
            return None

        def damaged() -> None:  # a row of another shape met later: that node has no members; rebuilt next run
            cachefiles.discard(path, "holds a row of another shape")

        try:
            return from_payload(payload, damaged)
        except ValueError:
            return None

    def store_types(self, sha: str, parsed: ParsedFile) -> None:
        if self.root is None or not is_digest(sha):
            return
        for gvk, t in parsed.types.items():
            if t is None:
                continue
            try:  # defaults and enums are JSON values; a type whose values JSON would change is not kept
                payload = to_payload(encode(t))
            except (ValueError, TypeError, RecursionError):
                continue
            self._write(self._type_path(sha, gvk), "types", payload)
        self._write(self._meta_path(sha), "meta", _meta_payload(parsed))
        self.evict(keep=sha)

    def _meta_path(self, sha: str) -> Path:
        assert self.root is not None
        return self.root / "types" / sha / "meta.json"

    def _type_path(self, sha: str, gvk: tuple[str, str, str]) -> Path:
        assert self.root is not None
        name = hashlib.sha256("\0".join(gvk).encode()).hexdigest()[:24]
        return self.root / "types" / sha / f"{name}.types"

    # -- raw dicts ------------------------------------------------------------------------------

    def load_raw(self, sha: str) -> dict[str, Any] | None:
        if self.root is None or not is_digest(sha):
            return None
        path = self.root / "raw" / f"{sha}.json"
        data = self._read(path, "raw")
        if not isinstance(data, dict) or not isinstance(data.get("components"), dict):
            return None
        raws = data.get("raws")
        if not isinstance(raws, list) or not all(
            isinstance(r, list) and len(r) == 2 and _gvk(r[0]) and isinstance(r[1], dict) for r in raws
        ):
            return None
        _touch(path)
        return {"raws": {tuple(gvk): raw for gvk, raw in raws}, "components": data["components"]}

    def store_raw(self, sha: str, raws: dict[Any, Any], components: dict[str, Any]) -> None:
        if self.root is None or not is_digest(sha):
            return
        try:
            payload = json.dumps({"raws": [[list(gvk), raw] for gvk, raw in raws.items()],
                                  "components": components}, separators=(",", ":")).encode()
        except (TypeError, ValueError, RecursionError):
            return
        self._write(self.root / "raw" / f"{sha}.json", "raw", payload)
        self.evict(keep=sha)

    # -- index ----------------------------------------------------------------------------------

    def load_index(self) -> dict[str, Any]:
        if self.root is None:
            return {}
        data = self._read(self.root / "index.json", "index")
        files = data.get("files") if isinstance(data, dict) else None
        if not isinstance(files, dict):
            return {}
        return {key: entry for key, entry in files.items() if _index_entry(key, entry)}

    def store_index(self, files: dict[str, Any]) -> None:
        if self.root is None:
            return
        if len(files) > MAX_INDEX_ENTRIES:  # the oldest entries first: dicts keep insertion order
            files = dict(list(files.items())[-MAX_INDEX_ENTRIES:])
        payload = json.dumps({"files": files}, sort_keys=True).encode()
        self._write(self.root / "index.json", "index", payload)

    # -- eviction ----------------------------------------------------------------------------------

    def evict(self, keep: str = "") -> list[str]:
        """When the cache holds more than ``max_bytes``, remove the least recently used digests (never
        ``keep``) until it holds three quarters of it; returns the digests removed. Nothing is followed: a
        link in the cache is removed as a link, and only what is directly in the cache's own directories. A
        cache directory not used (a link, another user's) is not evicted from either: its entries are not
        the cache's."""
        if self.root is None:
            return []
        assert self.base is not None
        if any(cachefiles.refused(d, self.base) for d in (self.root, self.root / "types", self.root / "raw")):
            return []
        entries = self._entries()
        total = sum(size for size, _, _ in entries.values())
        if total <= self.max_bytes:
            return []
        removed = []
        for sha, (size, _, paths) in sorted(entries.items(), key=lambda item: item[1][1]):
            if total <= self.max_bytes * 3 // 4:
                break
            if sha == keep:
                continue
            for path, st in paths:
                cachefiles.remove(path, st)
            total -= size
            removed.append(sha)
        return removed

    def _entries(self) -> dict[str, tuple[int, float, list[tuple[Path, os.stat_result]]]]:
        """digest -> (bytes, last use, entries) for every digest with something in the cache; a digest
        directory's files come before the directory itself, so removing them in order empties it first."""
        assert self.root is not None
        out: dict[str, tuple[int, float, list[tuple[Path, os.stat_result]]]] = {}

        def add(sha: str, path: Path, st: os.stat_result, counted: bool = True) -> None:
            size, used, paths = out.get(sha, (0, 0.0, []))
            if counted:  # a directory's own size and time say nothing of its use
                size, used = size + st.st_size, max(used, st.st_mtime)
            out[sha] = (size, used, [*paths, (path, st)])

        for directory, st in cachefiles.entries(self.root / "types"):
            is_directory = stat.S_ISDIR(st.st_mode)
            if is_directory:  # a real directory: its entries, never what a link leads to
                for path, inner in cachefiles.entries(directory):
                    add(directory.name, path, inner)
            add(directory.name, directory, st, counted=not is_directory)
        for path, st in cachefiles.entries(self.root / "raw"):
            add(path.name.split(".", 1)[0], path, st)
        return out


def _meta_payload(parsed: ParsedFile) -> bytes:
    return json.dumps({
        "path": parsed.path,
        "format": parsed.format,
        "gvks": [list(gvk) for gvk in parsed.types],
        "errors": [[e.message, e.file, e.line, e.column] for e in parsed.errors],
        "declared": [[group, kind, list(versions)]
                     for (group, kind), versions in parsed.declared_versions.items()],
    }, separators=(",", ":")).encode()


def _meta_of(data: object) -> ParsedFile | None:
    """The meta record's ParsedFile; None when it is not of the shape ``_meta_payload`` writes."""
    if not isinstance(data, dict):
        return None
    keys = ("path", "format", "gvks", "errors", "declared")
    path, fmt, gvks, errors, declared = (data.get(k) for k in keys)
    if not (isinstance(path, str) and fmt in ("crd", "openapi") and isinstance(gvks, list)
            and all(_gvk(g) for g in gvks) and isinstance(errors, list) and isinstance(declared, list)):
        return None
    if not all(isinstance(e, list) and len(e) == 4 and isinstance(e[0], str)
               and (e[1] is None or isinstance(e[1], str)) and _position(e[2]) and _position(e[3])
               for e in errors):
        return None
    if not all(isinstance(d, list) and len(d) == 3 and isinstance(d[0], str) and isinstance(d[1], str)
               and _strings(d[2]) for d in declared):
        return None
    return ParsedFile(path, fmt, dict.fromkeys(tuple(g) for g in gvks), {}, {},
                      [SchemaError(*e) for e in errors], {(d[0], d[1]): list(d[2]) for d in declared})


def _index_entry(key: object, entry: object) -> bool:
    """Whether an index entry has the shape the store writes: ``[mtime_ns, size, sha, gvks, declared]`` for
    a file, ``[mtime_ns, size, kinds]`` under a ``mentions\\0`` key."""
    if not isinstance(key, str) or not isinstance(entry, list) or len(entry) < 3:
        return False
    if not (type(entry[0]) is int and type(entry[1]) is int):
        return False
    if key.startswith("mentions\0"):
        return len(entry) == 3 and _strings(entry[2])
    return (len(entry) == 5 and is_digest(entry[2]) and isinstance(entry[3], list)
            and all(_gvk(g) for g in entry[3]) and isinstance(entry[4], dict)
            and all(isinstance(k, str) and "\0" in k and _strings(v) for k, v in entry[4].items()))


def _touch(path: Path) -> None:
    """Mark a cache entry used now (its modification time is its last use for eviction); never through a
    link."""
    try:
        os.utime(path, follow_symlinks=False)
    except (OSError, NotImplementedError):
        pass
