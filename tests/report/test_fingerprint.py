"""primaryLocationLineHash must equal what GitHub's upload action computes for the same file.

The expected values are the upload action's published test vectors (same inputs, same outputs).
"""

from __future__ import annotations

from typing import Any

import pytest

from wmaplint.report.fingerprint import line_hashes

TRAILING = [
    "e9496ae3ebfced30:1",
    "fb7c023a8b9ccb3f:1",
    "ce8ba1a563dcdaca:1",
    "e20e36e16fcb0cc8:1",
    "b3edc88f2938467e:1",
    "c8e28b0b4002a3a0:1",
    "c129715d7a2bc9a3:1",
]


def _values(text: str) -> list[str]:
    hashes = line_hashes(text)
    assert sorted(hashes) == list(range(1, len(hashes) + 1))
    return [hashes[n] for n in sorted(hashes)]


def test_empty_file_has_one_line() -> None:
    assert _values("") == ["c129715d7a2bc9a3:1"]


def test_blanks_are_ignored() -> None:
    assert _values(" a\nb\n  \t\tc\n d") == [
        "271789c17abda88f:1",
        "54703d4cd895b18:1",
        "180aee12dab6264:1",
        "a23a3dc5e078b07b:1",
    ]


def test_without_final_newline() -> None:
    assert _values(" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End") == [
        "8b7cf3e952e7aeb2:1",
        "b1ae1287ec4718d9:1",
        "bff680108adb0fcc:1",
        "c6805c5e1288b612:1",
        "b86d3392aea1be30:1",
        "e6ceba753e1a442:1",
    ]


@pytest.mark.parametrize(
    "text",
    [
        " hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n",
        " hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r",
        " hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n",
        " hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n",
    ],
    ids=["lf", "cr", "crlf", "mixed"],
)
def test_line_break_styles_hash_alike(text: str) -> None:
    assert _values(text) == TRAILING


def test_repeated_lines_count_occurrences() -> None:
    assert _values("Lorem ipsum dolor sit amet.\n" * 10) == [
        "a7f2ff13bc495cf2:1",
        "a7f2ff13bc495cf2:2",
        "a7f2ff13bc495cf2:3",
        "a7f2ff13bc495cf2:4",
        "a7f2ff13bc495cf2:5",
        "a7f2ff13bc495cf2:6",
        "a7f2ff1481e87703:1",
        "a9cf91f7bbf1862b:1",
        "55ec222b86bcae53:1",
        "cc97dc7b1d7d8f7b:1",
        "c129715d7a2bc9a3:1",
    ]


def test_stopping_early_gives_the_same_prefix() -> None:
    text = "Lorem ipsum dolor sit amet.\n" * 10
    full = line_hashes(text)
    partial = line_hashes(text, last_line=4)
    assert all(partial[line] == full[line] for line in partial)
    assert 4 in partial and len(partial) < len(full)


def test_astral_characters_count_as_two_units() -> None:
    # the hash sees UTF-16 code units, so an emoji differs from any single character in its place
    assert line_hashes("a😀b\n")[1] != line_hashes("a\uffffb\n")[1]
    assert len(line_hashes("😀\n" * 3)) == 4


def test_real_crd_has_one_hash_per_line(bundled_crd: Any) -> None:
    text = bundled_crd("crds/jobset.x-k8s.io/jobset_v1alpha2.yaml")
    hashes = line_hashes(text)
    assert len(hashes) == len(text.split("\n"))
