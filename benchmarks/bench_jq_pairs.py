"""What libjq's pairwise steps cost (wmaplint.jq.cost.pair_terms), each on the two arrays that make it compare
every element of one with every element of the other: ``index`` and an array index search at every
position without stopping at a mismatch, array minus array looks for each element in the other array, and
``contains`` stops at the first element it does not find, so each must be found last. Prints `name: value
unit` lines: the nanoseconds a pair, which set IN_PROCESS_PAIRS (wmaplint.jq.runtime)."""

from __future__ import annotations

import json
import time

import jq

# (name, program, the element the first array is made of and its last one, the second array's element)
STEPS = [
    ("index of an array in an array", "(.b) as $b | .a | index($b)", 1, 1, 2),
    ("an index that is an array", ".a[.b]", 1, 1, 2),
    ("array minus array", ".a - .b | length", 1, 1, 2),
    ("contains", "(.b) as $b | .a | contains($b)", 1, 2, 2),
    ("contains, strings", "(.b) as $b | .a | contains($b)", "a", "b", "b"),
]
SIZES = (2000, 4000)  # elements of the first array; the second has half as many


def per_pair(program: str, element: object, last: object, other: object, size: int) -> float:
    compiled = jq.compile(program)
    text = json.dumps({"a": [element] * (size - 1) + [last], "b": [other] * (size // 2)})
    start = time.perf_counter()
    for _ in compiled.input_text(text):
        pass
    return (time.perf_counter() - start) / (size * (size // 2))


def main() -> None:
    for name, program, element, last, other in STEPS:
        cost = min(per_pair(program, element, last, other, size) for size in SIZES)
        print(f"jq pairwise {name}: {cost * 1e9:.1f} ns/pair")


if __name__ == "__main__":
    main()
