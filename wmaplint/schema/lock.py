"""The schema lock (``schemas/lock.yaml``) and the commands that fill the user schema dir.

``pull`` is the only code in wmaplint that may touch the network, and never with ``from_dir`` (``--from``):
then every file must be found below that directory; every file is verified against its sha256 before it
is kept.
"""

from __future__ import annotations

import hashlib
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

from wmaplint.dataclass import dataclass
from wmaplint.diagnostics import BUNDLED_SCHEMAS, CACHED_SCHEMAS
from wmaplint.schema.errors import SchemaError
from wmaplint.schema.loader import GVK, format_gvk, parse_bytes
from wmaplint.schema.names import gvk_name_problem
from wmaplint.schema.store import SchemaStore
from wmaplint.shipped_data import shipped
from wmaplint.source.data import SHIPPED_DATA, DataError, read_data
from wmaplint.source.reading import InputError, read_bytes

DEFAULT_LOCK = shipped("schemas") / "lock.yaml"
DOWNLOAD_LIMIT = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class LockEntry:
    file: str
    url: str
    sha256: str
    gvks: tuple[GVK, ...]


def read_lock(path: str | Path = DEFAULT_LOCK) -> list[LockEntry]:
    """The entries of a lock file, read under the data limits (``wmaplint.source.data``)."""
    try:
        data = read_data(path, SHIPPED_DATA)
    except DataError as exc:
        raise SchemaError(f"cannot read lock file: {exc.reason}", str(path), exc.line, exc.column) from None
    items = data.get("schemas") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise SchemaError("lock file has no 'schemas' list", str(path))
    out = []
    for i, item in enumerate(items):
        keys = ("file", "url", "sha256")
        if not (isinstance(item, dict) and all(isinstance(item.get(k), str) for k in keys)):
            raise SchemaError(f"lock entry {i} needs string 'file', 'url' and 'sha256'", str(path))
        if Path(item["file"]).is_absolute() or ".." in Path(item["file"]).parts:
            raise SchemaError(f"lock entry {i}: file must be a relative path inside the cache", str(path))
        gvks = tuple(
            (str(g.get("group", "")), str(g.get("version", "")), str(g.get("kind", "")))
            for g in item.get("gvks") or [] if isinstance(g, dict)
        )
        out.append(LockEntry(item["file"], item["url"], item["sha256"].lower(), gvks))
    return out


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _urllib_fetch(url: str) -> bytes:
    if not url.startswith("https://"):
        raise SchemaError(f"refusing to download from a non-https URL: {url}")
    with urllib.request.urlopen(url, timeout=60) as resp:  # noqa: S310 - https only, checked above
        data: bytes = resp.read(DOWNLOAD_LIMIT + 1)
    if len(data) > DOWNLOAD_LIMIT:
        raise SchemaError(f"download larger than {DOWNLOAD_LIMIT} bytes: {url}")
    return data


def _write(target: Path, data: bytes) -> None:
    """Write a schema into the cache as every cache file is (``cachefiles``): never into a cache directory
    another user owns or others can write (refused, said once), directories made 0700, written whole."""
    from wmaplint import cachefiles
    from wmaplint.schema.sources import user_dir

    base = user_dir()
    root = base if target.is_relative_to(base) else target.parent
    if not cachefiles.write_file(target, data, root):
        raise SchemaError("cannot be written into the schema cache; nothing was added", str(target.parent))


def pull(
    lock: str | Path | list[LockEntry],
    dest_cache: str | Path,
    from_dir: str | Path | None = None,
    fetch: Callable[[str], bytes] | None = None,
    store: SchemaStore | None = None,
) -> list[Path]:
    """Make ``dest_cache`` hold every locked file; returns the paths written or already valid. ``store``:
    keeps each file's pre-parsed form (nothing to parse for a file the bundle holds): no later run parses it.

    With ``from_dir``, files are taken from there (by digest anywhere below it) and the network is never
    used: a missing file, or one at the lock's relative path with another digest, is a SchemaError naming
    the file and both digests. Without it, files are downloaded. Any digest mismatch is a SchemaError.
    """
    entries = read_lock(lock) if not isinstance(lock, list) else lock
    dest = Path(dest_cache)
    missing = [e for e in entries if not _holds(dest / e.file, e.sha256)]
    for entry, data in locked_files(missing, from_dir, fetch):
        _write(dest / entry.file, data)
    written = [dest / e.file for e in entries]
    if store is not None:
        for path in written:
            store.prepare(path)
    return written


def _holds(path: Path, sha256: str) -> bool:
    try:
        return path.is_file() and _sha256(path.read_bytes()) == sha256
    except OSError:
        return False


def locked_files(
    entries: list[LockEntry], from_dir: str | Path | None = None, fetch: Callable[[str], bytes] | None = None
) -> Iterator[tuple[LockEntry, bytes]]:
    """The bytes of every entry, sha256-verified: from ``from_dir`` (never the network) or downloaded."""
    if from_dir is not None and not Path(from_dir).is_dir():
        raise SchemaError(f"--from directory does not exist: {from_dir}")
    local = _index_by_digest(Path(from_dir)) if from_dir is not None and entries else {}
    fetch = fetch or _urllib_fetch
    for entry in entries:
        data = local.get(entry.sha256)
        if data is None and from_dir is not None:
            raise SchemaError(_missing_locally(entry, Path(from_dir)))
        if data is None:
            try:
                data = fetch(entry.url)
            except SchemaError:
                raise
            except Exception as exc:  # noqa: BLE001 - network errors come in many types
                raise SchemaError(f"cannot download {entry.url}: {exc}") from None
        got = _sha256(data)
        if got != entry.sha256:
            raise SchemaError(f"sha256 mismatch for {entry.file}: expected {entry.sha256}, got {got}")
        yield entry, data


def _missing_locally(entry: LockEntry, root: Path) -> str:
    candidate = root / entry.file
    try:
        got = _sha256(read_bytes(candidate)) if candidate.is_file() else None
    except InputError:
        got = None
    if got is not None:
        return (
            f"sha256 mismatch for {entry.file} in {root}: the lock says {entry.sha256}, "
            f"the file has {got} (--from uses no network)"
        )
    return f"{entry.file} (sha256 {entry.sha256}) not found in {root} (--from uses no network)"


def _index_by_digest(root: Path) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    if not root.is_dir():
        return out
    for p in root.rglob("*"):
        if p.is_file() and p.suffix in (".yaml", ".yml", ".json"):
            try:
                data = read_bytes(p)
            except InputError:
                continue
            out.setdefault(_sha256(data), data)
    return out


def add(
    path_or_stdin_text: str, dest_cache: str | Path, *, is_text: bool = False, data: bytes | None = None,
    store: SchemaStore | None = None,
) -> list[GVK]:
    """Copy a CRD file (or CRD YAML text, e.g. from ``kubectl get crd X -o yaml``) into the user cache.

    The file is named by its first GVK and digest so adding the same CRD twice is harmless.
    ``data``: the bytes themselves (stdin), the first argument then only names them. ``store``: keeps the
    pre-parsed form (this is the only parse). Raises SchemaError when the input is not UTF-8 or serves no GVK.
    """
    if data is not None:
        origin = "<stdin>" if path_or_stdin_text == "-" else path_or_stdin_text
    elif is_text:
        data = path_or_stdin_text.encode("utf-8", "surrogateescape")
        origin = "<stdin>"
    else:
        origin = path_or_stdin_text
        try:
            data = read_bytes(path_or_stdin_text)
        except InputError as exc:
            raise SchemaError(f"cannot read {origin}: {exc.reason}", origin) from None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SchemaError(f"not UTF-8 text (byte {exc.start})", origin) from None
    parsed = parse_bytes(data, origin)
    gvks = list(parsed.types)
    if not gvks:
        first = parsed.errors[0] if parsed.errors else None
        raise SchemaError(first.message if first else "no schema found", origin,
                          first.line if first else None)
    for gvk in gvks:  # the copy is named from its first kind and serves them all
        problem = gvk_name_problem(*gvk)
        if problem is not None:
            raise SchemaError(f"{problem}; nothing was added", origin)
    group, _, kind = gvks[0]
    suffix = ".json" if parsed.format == "openapi" else ".yaml"
    name = f"{group or 'core'}_{kind.lower()}_{_sha256(data)[:12]}{suffix}"
    target = Path(dest_cache) / "added" / name
    _write(target, data)
    if store is not None:
        store.prepare(target, data, parsed)
    return gvks


def list_schemas(store: SchemaStore) -> list[tuple[str, str, str]]:
    """Rows for ``schemas list``: (GVK, the versions the same source serves for that kind, the source: a file,
    ``cached: <path in the user schema dir>`` or ``bundled: <lock path>``)."""
    prefix = {CACHED_SCHEMAS: "cached: ", BUNDLED_SCHEMAS: "bundled: "}
    return [(format_gvk(gvk), ",".join(versions), prefix.get(base or "", "") + source)
            for gvk, versions, source, base in store.rows()]
