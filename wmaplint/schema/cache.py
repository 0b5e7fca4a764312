"""On-disk cache of parsed schema files, keyed by the sha256 of the file bytes.

``types/<sha>/`` holds the problems found (``meta.pickle``) and one type model per GVK (with property line
numbers), as a compact table (``.marshal``, see ``compact``) whose nodes are built only when read;
``raw/<sha>.marshal`` the raw schema dicts, written and read only when someone asks for ``.raw``;
``index.json`` maps a file path (+ mtime and size) to its digest and GVKs, so a warm run reads no schema
file it does not need. A corrupt or foreign entry is ignored and rebuilt.

The cache is bounded: past ``max_bytes`` a write evicts the least recently used digests (a read marks its
entry used by its modification time) down to three quarters of the cap, and the index keeps the most recent
``MAX_INDEX_ENTRIES`` files.
"""

from __future__ import annotations

import gc
import hashlib
import json
import marshal
import os
import pickle
import sys
from pathlib import Path
from typing import Any

from wmaplint.schema.compact import decode, encode
from wmaplint.schema.loader import ParsedFile
from wmaplint.schema.types import SchemaType

FORMAT_VERSION = 5  # 5: property descriptions in the type tables
MAX_CACHE_BYTES = 128 * 1024 * 1024  # several dozen large CRDs; the pinned ones are served by the bundle
MAX_INDEX_ENTRIES = 4096


def _write_atomic(target: Path, data: bytes) -> None:
    import tempfile  # with shutil, random, bz2 and lzma: only when an entry is written, not on every read

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, target)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError:
        pass  # a read-only or full cache only costs speed


class ParsedCache:
    def __init__(self, root: Path | None, max_bytes: int = MAX_CACHE_BYTES) -> None:
        self.root = root
        self.max_bytes = max_bytes

    # -- types: one meta entry per file, one pickle per GVK (a lookup loads only what it needs) ----

    def load_meta(self, sha: str) -> ParsedFile | None:
        """The file's problems and declared versions; ``types`` maps each served GVK to ``None``."""
        payload = self._load_pickle(self._meta_path(sha)) if self.root is not None else None
        parsed = payload.get("parsed") if payload else None
        if not isinstance(parsed, ParsedFile):
            return None
        _touch(self._meta_path(sha))
        return parsed

    def load_type(self, sha: str, gvk: tuple[str, str, str]) -> SchemaType | None:
        """The GVK's type: from its compact table (members built on first access), else from a pickle."""
        if self.root is None:
            return None
        try:
            blob = self._type_path(sha, gvk, compact=True).read_bytes()
        except OSError:
            payload = self._load_pickle(self._type_path(sha, gvk))
            t = payload.get("type") if payload else None
            return t if isinstance(t, SchemaType) else None
        try:
            payload = marshal.loads(blob)
            if not isinstance(payload, dict) or payload.get("version") != FORMAT_VERSION:
                return None
            return decode(payload.get("rows"))  # type: ignore[arg-type]
        except (EOFError, ValueError, TypeError):
            return None

    def store_types(self, sha: str, parsed: ParsedFile) -> None:
        if self.root is None:
            return
        meta = ParsedFile(parsed.path, parsed.format, dict.fromkeys(parsed.types), {}, {}, parsed.errors,
                          parsed.declared_versions)
        for gvk, t in parsed.types.items():
            if t is None:
                continue
            try:  # defaults and enums are JSON values, which marshal keeps; anything else goes to pickle
                blob = marshal.dumps({"version": FORMAT_VERSION, "rows": encode(t)})
            except ValueError:
                self._store_pickle(self._type_path(sha, gvk), {"version": FORMAT_VERSION, "type": t})
            else:
                _write_atomic(self._type_path(sha, gvk, compact=True), blob)
        self._store_pickle(self._meta_path(sha), {"version": FORMAT_VERSION, "parsed": meta})
        self.evict(keep=sha)

    def _meta_path(self, sha: str) -> Path:
        assert self.root is not None
        return self.root / "types" / sha / "meta.pickle"

    def _type_path(self, sha: str, gvk: tuple[str, str, str], compact: bool = False) -> Path:
        assert self.root is not None
        name = hashlib.sha256("\0".join(gvk).encode()).hexdigest()[:24]
        return self.root / "types" / sha / f"{name}.{'marshal' if compact else 'pickle'}"

    def _load_pickle(self, path: Path | None) -> dict[str, Any] | None:
        if self.root is None:
            return None
        try:
            blob = path.read_bytes()  # type: ignore[union-attr]
        except OSError:
            return None
        enabled = gc.isenabled()
        gc.disable()  # tens of thousands of small objects: collection passes would triple the time
        try:
            payload = pickle.loads(blob)
        except Exception:  # noqa: BLE001 - any unreadable entry is simply rebuilt
            return None
        finally:
            if enabled:
                gc.enable()
        if not isinstance(payload, dict) or payload.get("version") != FORMAT_VERSION:
            return None
        return payload

    def _store_pickle(self, path: Path, payload: dict[str, Any]) -> None:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20000))  # pickle recurses along long $ref chains
        try:
            blob = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
        except (RecursionError, pickle.PicklingError):
            return
        finally:
            sys.setrecursionlimit(limit)
        _write_atomic(path, blob)

    # -- raw dicts ------------------------------------------------------------------------------

    def load_raw(self, sha: str) -> dict[str, Any] | None:
        if self.root is None:
            return None
        try:
            payload = marshal.loads((self.root / "raw" / f"{sha}.marshal").read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            return None
        if not isinstance(payload, dict) or payload.get("version") != FORMAT_VERSION:
            return None
        _touch(self.root / "raw" / f"{sha}.marshal")
        return payload

    def store_raw(self, sha: str, raws: dict[Any, Any], components: dict[str, Any]) -> None:
        if self.root is None:
            return
        try:
            blob = marshal.dumps({"version": FORMAT_VERSION, "raws": raws, "components": components})
        except (ValueError, RecursionError):
            return
        _write_atomic(self.root / "raw" / f"{sha}.marshal", blob)
        self.evict(keep=sha)

    # -- index ----------------------------------------------------------------------------------

    def load_index(self) -> dict[str, Any]:
        if self.root is None:
            return {}
        try:
            data = json.loads((self.root / "index.json").read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
            return {}
        files = data.get("files")
        return files if isinstance(files, dict) else {}

    def store_index(self, files: dict[str, Any]) -> None:
        if self.root is None:
            return
        if len(files) > MAX_INDEX_ENTRIES:  # the oldest entries first: dicts keep insertion order
            files = dict(list(files.items())[-MAX_INDEX_ENTRIES:])
        blob = json.dumps({"version": FORMAT_VERSION, "files": files}, sort_keys=True).encode()
        _write_atomic(self.root / "index.json", blob)

    # -- eviction ----------------------------------------------------------------------------------

    def evict(self, keep: str = "") -> list[str]:
        """When the cache holds more than ``max_bytes``, remove the least recently used digests (never
        ``keep``) until it holds three quarters of it; returns the digests removed."""
        if self.root is None:
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
            for path in paths:
                try:
                    path.unlink()
                except OSError:
                    pass
            try:
                (self.root / "types" / sha).rmdir()
            except OSError:
                pass
            total -= size
            removed.append(sha)
        return removed

    def _entries(self) -> dict[str, tuple[int, float, list[Path]]]:
        """digest -> (bytes, last use, files) for every digest with something in the cache."""
        assert self.root is not None
        out: dict[str, tuple[int, float, list[Path]]] = {}

        def add(sha: str, path: Path) -> None:
            try:
                st = path.stat()
            except OSError:
                return
            size, used, paths = out.get(sha, (0, 0.0, []))
            out[sha] = (size + st.st_size, max(used, st.st_mtime), [*paths, path])

        for directory in _listdir(self.root / "types"):
            for path in _listdir(directory):
                add(directory.name, path)
        for path in _listdir(self.root / "raw"):
            add(path.name.split(".", 1)[0], path)
        return out


def _listdir(directory: Path) -> list[Path]:
    try:
        return list(directory.iterdir())
    except OSError:
        return []


def _touch(path: Path) -> None:
    """Mark a cache entry used now (its modification time is its last use for eviction)."""
    try:
        os.utime(path)
    except OSError:
        pass
