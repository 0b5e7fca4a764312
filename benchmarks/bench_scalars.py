"""Decoding speed of large YAML scalars with source offsets (prints `name: value unit` lines)."""

from __future__ import annotations

import time

import yaml

from wmaplint.source.scalars import LineIndex, decode_with_offsets

LINE = '.spec.replicatedJobs[] | select(.name == "w\\u00e9") | .replicas * 2  '
SIZE = 1_000_000


def documents() -> dict[str, str]:
    lines = [LINE] * (SIZE // len(LINE))
    escaped = [line.replace('"', '\\"') for line in lines]
    return {
        "plain": "big: " + "\n  ".join(line.replace('"', "").replace("\\", "") for line in lines) + "\n",
        "single": "big: '" + "\n  ".join(line.replace('"', "''") for line in lines) + "'\n",
        "double": 'big: "' + "\n  ".join(escaped) + '"\n',
        "literal": "big: |\n" + "".join(f"  {line}\n" for line in lines),
        "folded": "big: >-\n" + "".join(f"  {line}\n" for line in lines),
        "literal_indicator": "big: |2\n" + "".join(f"    {line}\n" for line in lines),
    }


def main() -> None:
    for name, text in documents().items():
        root = yaml.compose(text, Loader=yaml.CSafeLoader)
        assert root is not None
        node = root.value[0][1]
        began = time.perf_counter()
        value, _ = decode_with_offsets(text, node.start_mark.index, node.end_mark.index, node.style)
        elapsed = time.perf_counter() - began
        assert value == node.value
        print(f"decode_{name}_1mb: {elapsed * 1000:.1f} ms")
    text = documents()["literal"]
    began = time.perf_counter()
    index = LineIndex(text)
    built = time.perf_counter() - began
    began = time.perf_counter()
    for at in range(0, len(text), 97):
        index.position(at)
    lookups = len(range(0, len(text), 97))
    print(f"line_index_build_1mb: {built * 1000:.1f} ms")
    print(f"line_index_position: {(time.perf_counter() - began) / lookups * 1e6:.2f} us")


if __name__ == "__main__":
    main()
