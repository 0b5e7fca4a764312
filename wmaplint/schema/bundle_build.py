"""Writing the schema bundle (``make schemas``): every lock entry fetched and sha256-verified, parsed once and
stored pre-parsed in the form ``wmaplint.schema.bundle`` reads. The same inputs give the same bytes.

    python -m wmaplint.schema.bundle_build build [--from DIR] [--lock FILE] [--out FILE]
    python -m wmaplint.schema.bundle_build check [--lock FILE] [--bundle FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import marshal
import sys
import zlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wmaplint.schema.bundle import BUNDLE_NAME, MAGIC, Bundle
from wmaplint.schema.errors import SchemaError
from wmaplint.schema.loader import ParsedFile, format_gvk, parse_bytes
from wmaplint.schema.lock import DEFAULT_LOCK, LockEntry, locked_files, read_lock

if TYPE_CHECKING:
    from wmaplint.source.plain import Json

# A subtree shared by several places is stored once when it is at least this big (bytes of marshal data,
# roughly): below it a patch costs more than the copy compresses to.
POOL_MIN_SIZE = 200
# The pool is cut into chunks of about this many bytes (uncompressed), in the order its entries were found
# (source by source): a source then decompresses the few chunks it reaches, not the whole pool (a third of the
# time), at the price of a bigger bundle (chunks compress apart: 545 KB instead of 532 KB).
POOL_CHUNK_SIZE = 64 * 1024
# A position subtree at least this big (bytes of marshal data) is stored as its own marshalled bytes
# (``folded``): a check builds the types of a few paths of a CRD, and decoding all of its position trees
# was most of the time spent reading the bundle (23 of 26 ms for the catalog's CRDs).
FOLD_MIN_SIZE = 256
Patches = list[tuple[tuple[Any, ...], int]]


def build(lock: str | Path = DEFAULT_LOCK, from_dir: str | Path | None = None,
          fetch: Callable[[str], bytes] | None = None) -> bytes:
    """The bundle of every source of ``lock``; raises SchemaError for a source that does not load cleanly
    or serves other GVKs than the lock lists."""
    entries = read_lock(lock)
    parsed: list[tuple[LockEntry, ParsedFile]] = []
    for entry, data in locked_files(entries, from_dir, fetch):
        result = parse_bytes(data, entry.file)
        if result.errors:
            raise SchemaError(f"does not load cleanly: {result.errors[0]}", entry.file)
        served = tuple(result.types)
        if served != entry.gvks:
            listed = ", ".join(format_gvk(g) for g in entry.gvks)
            found = ", ".join(format_gvk(g) for g in served)
            raise SchemaError(f"serves {found} but the lock lists {listed}", entry.file)
        parsed.append((entry, result))
    return _encode(parsed)


def _payload(parsed: ParsedFile) -> dict[str, Any]:
    names = {id(c): n for n, c in parsed.components.items()}
    if parsed.format == "openapi":
        return {"raws": {}, "components": dict(parsed.components), "where": {},
                "names": {gvk: names[id(raw)] for gvk, raw in parsed.raws.items()}}
    return {"raws": dict(parsed.raws), "components": {}, "names": {},
            "where": {gvk: folded(tree) for gvk, tree in parsed.positions.items()}}


def folded(tree: Any) -> Any:
    """A position tree (``loader.Where``) whose subtrees, members' and parts', are folded where large: kept as
    ``(line, column, bytes)``, the bytes the marshalled members and parts (themselves folded), so that a
    type's line and column are read without them; ``loader.opened`` unfolds one."""
    if tree is None:
        return None
    line, column, members, parts = tree
    if members is not None:
        members = tuple(None if m is None else (m[0], m[1], _fold(folded(m[2]))) for m in members)
    if parts is not None:
        parts = {k: _fold(folded(v)) if k in ("items", "additionalProperties")
                 else tuple(_fold(folded(t)) for t in v) for k, v in parts.items()}
    return (line, column, members, parts)


def _fold(tree: Any) -> Any:
    if tree is None:
        return None
    inner = marshal.dumps(tree[2:], 2)
    return (tree[0], tree[1], inner) if len(inner) >= FOLD_MIN_SIZE else tree


def _encode(parsed: list[tuple[LockEntry, ParsedFile]]) -> bytes:
    payloads = [_payload(p) for _, p in parsed]
    pool = _Pool()
    for payload in payloads:
        for part in ("raws", "components"):
            for value in payload[part].values():
                pool.count(value)
    chunks: list[bytes] = []
    sources = []
    offset = 0
    for (entry, result), payload in zip(parsed, payloads, strict=True):
        patches: Patches = []
        for part in ("raws", "components"):
            payload[part] = {k: pool.place(v, 1, (part, k), patches) for k, v in payload[part].items()}
        payload["patches"] = patches
        chunk = _compress(payload)
        sources.append({
            "file": entry.file, "sha256": entry.sha256, "url": entry.url, "format": result.format,
            "gvks": [list(g) for g in result.types],
            "declared": [[g, k, vs] for (g, k), vs in result.declared_versions.items()],
            "chunk": [offset, len(chunk)],
        })
        chunks.append(chunk)
        offset += len(chunk)
    pool_chunks = []
    for first, entries in _pool_chunks(pool.entries):
        chunk = _compress(entries)
        pool_chunks.append([first, offset, len(chunk)])
        chunks.append(chunk)
        offset += len(chunk)
    header = {"sources": sources, "pool": pool_chunks}
    head = json.dumps(header, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()
    return MAGIC + head + b"\n" + b"".join(chunks)


def _pool_chunks(entries: list[tuple[Any, Patches]]) -> list[tuple[int, list[tuple[bytes, Patches]]]]:
    """The pool cut into chunks of about POOL_CHUNK_SIZE, as (number of the first entry, entries); each entry
    marshalled on its own, so that a reader unmarshals only the entries its source reaches."""
    out: list[tuple[int, list[tuple[bytes, Patches]]]] = []
    size = POOL_CHUNK_SIZE
    for index, (value, patches) in enumerate(entries):
        blob = marshal.dumps(value, 2)
        if size >= POOL_CHUNK_SIZE:
            out.append((index, []))
            size = 0
        out[-1][1].append((blob, patches))
        size += len(blob)
    return out


def _compress(value: Any) -> bytes:
    data = marshal.dumps(value, 2)  # format 2 has no references between objects: same data, same bytes
    return zlib.compress(data, 9)


class _Pool:
    """Content-addressed sharing of schema subtrees across (and within) sources."""

    def __init__(self) -> None:
        self.digests: dict[int, tuple[bytes, int]] = {}  # id(container) -> (digest, approximate size)
        self.seen: Counter[bytes] = Counter()  # occurrences of each container content
        self.index: dict[bytes, int] = {}
        self.entries: list[tuple[Any, Patches]] = []
        self._alive: list[Any] = []  # keeps measured containers alive, so their ids stay theirs

    def count(self, value: object) -> None:
        stack = [value]
        while stack:
            v = stack.pop()
            if isinstance(v, (dict, list)):
                self.seen[self._digest(v)[0]] += 1
                stack.extend(v.values() if isinstance(v, dict) else v)

    def _digest(self, root: Json) -> tuple[bytes, int]:
        """(sha256 of the exact content, size) of a container; post-order without recursion."""
        stack: list[tuple[Any, bool]] = [(root, False)]
        while stack:
            v, ready = stack.pop()
            if id(v) in self.digests:
                continue
            children = list(v.values()) if isinstance(v, dict) else v
            if not ready:
                stack.append((v, True))
                stack.extend((c, False) for c in children if isinstance(c, (dict, list)))
                continue
            h = hashlib.sha256(b"d" if isinstance(v, dict) else b"l")
            size = 5
            for key, child in (v.items() if isinstance(v, dict) else enumerate(v)):
                if isinstance(v, dict):
                    h.update(marshal.dumps(key, 2))
                if isinstance(child, (dict, list)):
                    digest, child_size = self.digests[id(child)]
                else:
                    leaf = marshal.dumps(child, 2)
                    digest, child_size = hashlib.sha256(leaf).digest(), len(leaf)
                h.update(digest)
                size += child_size + (len(key) + 5 if isinstance(key, str) else 0)
            self.digests[id(v)] = (h.digest(), size)
            self._alive.append(v)
        return self.digests[id(root)]

    def place(self, value: Json, limit: int, path: tuple[Any, ...], patches: Patches) -> Any:
        """``value`` as stored at ``path``: ``None`` plus a patch when it goes to the pool, which it does when
        it is big enough and occurs more often than the entry it sits in (``limit``)."""
        if not isinstance(value, (dict, list)):
            return value
        digest, size = self._digest(value)
        if size >= POOL_MIN_SIZE and self.seen[digest] > max(limit, 1):
            patches.append((path, self._entry(value, digest)))
            return None
        return self._inner(value, limit, path, patches)

    def _inner(self, value: Any, limit: int, path: tuple[Any, ...], patches: Patches) -> Json:
        if isinstance(value, dict):
            return {k: self.place(v, limit, (*path, k), patches) for k, v in value.items()}
        return [self.place(v, limit, (*path, i), patches) for i, v in enumerate(value)]

    def _entry(self, value: Json, digest: bytes) -> int:
        index = self.index.get(digest)
        if index is None:
            index = self.index[digest] = len(self.entries)
            local: Patches = []
            self.entries.append((None, local))  # entries it holds are numbered after it
            self.entries[index] = (self._inner(value, self.seen[digest], (), local), local)
        return index


# -- verification ---------------------------------------------------------------------------------


def mismatches(bundle: Bundle, lock: str | Path = DEFAULT_LOCK) -> list[str]:
    """How ``bundle`` differs from ``lock`` (every entry present with its sha256, url and GVKs, nothing
    else); empty when they agree."""
    entries = {e.file: e for e in read_lock(lock)}
    problems = []
    found = {s.file: s for s in bundle.sources}
    for file, e in entries.items():
        s = found.get(file)
        if s is None:
            problems.append(f"{file}: in the lock, not in the bundle")
        elif (s.sha256, s.url, s.gvks) != (e.sha256, e.url, e.gvks):
            problems.append(f"{file}: the bundle holds another version (sha256 {s.sha256})")
    problems.extend(f"{file}: in the bundle, not in the lock" for file in found if file not in entries)
    if [s.file for s in bundle.sources] != [f for f in entries if f in found]:
        problems.append("the bundle lists the sources in another order than the lock")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m wmaplint.schema.bundle_build",
                                     description="Build or check the schema bundle shipped with wmaplint.")
    commands = parser.add_subparsers(dest="command", required=True)
    default_out = DEFAULT_LOCK.parent / BUNDLE_NAME
    make = commands.add_parser("build", help="Write the bundle from the lock's pinned sources.")
    make.add_argument("--from", dest="from_dir", help="Take the files from this directory (no network).")
    make.add_argument("--lock", default=str(DEFAULT_LOCK))
    make.add_argument("--out", default=str(default_out))
    check = commands.add_parser("check", help="Exit 1 unless the bundle holds exactly the lock's sources.")
    check.add_argument("--lock", default=str(DEFAULT_LOCK))
    check.add_argument("--bundle", default=str(default_out))
    args = parser.parse_args(argv)
    try:
        if args.command == "build":
            data = build(args.lock, args.from_dir)
            Path(args.out).write_bytes(data)
            print(f"{args.out}: {len(data)} bytes, {len(read_lock(args.lock))} sources")
            return 0
        problems = mismatches(Bundle(args.bundle), args.lock)
    except (SchemaError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
