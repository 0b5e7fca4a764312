"""The parsed-schema cache is bounded: least recently used digests go first, the index keeps the newest
files."""

import os

from wmaplint.schema.cache import MAX_INDEX_ENTRIES, ParsedCache
from wmaplint.schema.loader import ParsedFile
from wmaplint.schema.types import OBJECT, SchemaType


def _parsed(i: int) -> ParsedFile:
    gvk = ("example.com", "v1", f"Kind{i}")
    return ParsedFile(f"kind{i}.yaml", "crd", {gvk: SchemaType(OBJECT)}, {gvk: {"description": "x" * 10_000}})


def _store(cache: ParsedCache, i: int) -> str:
    sha = f"{i:064x}"
    parsed = _parsed(i)
    cache.store_types(sha, parsed)
    cache.store_raw(sha, parsed.raws, {})
    return sha


def _files(cache: ParsedCache, sha: str) -> list[str]:
    assert cache.root is not None
    found = [str(p) for p in (cache.root / "types" / sha).glob("*")]
    raw = cache.root / "raw" / f"{sha}.json"
    return found + ([str(raw)] if raw.exists() else [])


def test_a_full_cache_evicts_the_least_recently_used_digests(tmp_path):
    cache = ParsedCache(tmp_path, max_bytes=10**9)
    shas = [_store(cache, i) for i in range(4)]
    for i, sha in enumerate(shas):  # stored long ago, in this order
        for path in _files(cache, sha):
            os.utime(path, (1000 + i, 1000 + i))
    size = sum(os.path.getsize(p) for sha in shas for p in _files(cache, sha))
    assert cache.load_meta(shas[0]) is not None  # the oldest, used just now
    cache.max_bytes = size  # a fifth entry does not fit
    newest = _store(cache, 4)
    kept = [sha for sha in [*shas, newest] if _files(cache, sha)]
    assert kept == [shas[0], shas[3], newest]
    assert not (tmp_path / "types" / shas[1]).exists()
    assert cache.load_raw(shas[1]) is None and cache.load_raw(newest) is not None
    assert sum(os.path.getsize(p) for sha in kept for p in _files(cache, sha)) <= size


def test_a_cache_under_its_cap_evicts_nothing(tmp_path):
    cache = ParsedCache(tmp_path)
    shas = [_store(cache, i) for i in range(3)]
    assert cache.evict() == [] and all(_files(cache, sha) for sha in shas)


def test_the_index_keeps_the_most_recent_files(tmp_path):
    cache = ParsedCache(tmp_path)
    files = {f"/f{i}.yaml": [i, 1, "0" * 64, [], {}] for i in range(MAX_INDEX_ENTRIES + 10)}
    cache.store_index(files)
    kept = cache.load_index()
    assert len(kept) == MAX_INDEX_ENTRIES
    assert "/f9.yaml" not in kept and f"/f{MAX_INDEX_ENTRIES + 9}.yaml" in kept
