"""`wmaplint check` against check-jsonschema, and `--jobs` against one worker: whole processes, paired.

What it measures (each a whole process timed from outside, wmaplint and its peer interleaved in one loop;
medians and p95 over the runs, after one untimed run of each):
- one definition (the catalog's first in name order, named in the row): `wmaplint check FILE` against
  `check-jsonschema --schemafile schemas/definition.schema.json FILE` (the Karta format schema alone, no
  CRDs, no jq);
- the catalog: the same two commands over every shipped definition;
- 400 definitions: the same over 400 renamed copies of the catalog's definitions (made once under .bench/);
- `--jobs 2` against `--jobs 1`, and the automatic choice (`--jobs 0`, the default) against `--jobs 1`, on
  the 400 definitions.
wmaplint reads its schemas as a user's machine would after `wmaplint schemas pull`: pulled once, before
timing, into a private cache (from ../shared when present, else the schemas the package ships); "cold" is a
run right after emptying that cache's parsed-schema entries, next to the warm figure.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from harness import (
    REPO,
    WMAPLINT,
    WORK,
    check_jsonschema,
    definitions_corpus,
    environment,
    paired,
    ratio_line,
    run_once,
)

SHARED = REPO.parent / "shared"
SCHEMA = str(REPO / "schemas" / "definition.schema.json")


def _prepare(env: dict[str, str]) -> None:
    WORK.mkdir(parents=True, exist_ok=True)
    pull = [*WMAPLINT, "schemas", "pull", *(["--from", str(SHARED)] if SHARED.is_dir() else [])]
    subprocess.run(pull, env=env, cwd=WORK, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False)


def main() -> None:
    env = environment()
    _prepare(env)
    peer = check_jsonschema()
    definitions = sorted(str(p) for p in (REPO / "catalog").glob("*.yaml"))
    one = definitions[0]
    many = sorted(str(p) for p in definitions_corpus(400).glob("*.yaml"))
    if peer is None:
        print("check-jsonschema is not installed under .bench/peers (run `make bench`); ratios skipped")
    else:
        cases = [
            (f"check of one definition vs check-jsonschema ({Path(one).name})", [one], 15, "<= 0.5x"),
            (f"check of the catalog vs check-jsonschema ({len(definitions)} files)", definitions, 9,
             "<= 0.7x"),
            ("check of 400 definitions vs check-jsonschema", many, 5, "<= 0.3x"),
        ]
        for name, files, runs, goal in cases:
            ours, theirs = paired([*WMAPLINT, "check", *files],
                                  [*peer, "--schemafile", SCHEMA, *files], runs, env)
            print("TABLE|" + ratio_line(name, ours, theirs, goal))

    cache = WORK / "cache"
    cold = []
    for _ in range(3):
        for entry in ("types", "parsed", "parsed-6"):
            shutil.rmtree(cache / entry, ignore_errors=True)
        cold.append(run_once([*WMAPLINT, "check", one], env))
    warm = [run_once([*WMAPLINT, "check", one], env) for _ in range(3)]
    print(f"check of one definition, cold schema cache: {sorted(cold)[1] * 1000:.0f} ms (median of 3); "
          f"warm: {sorted(warm)[1] * 1000:.0f} ms")

    one_job = [*WMAPLINT, "check", "--jobs", "1"]
    serial, two = paired([*one_job, *many], [*WMAPLINT, "check", "--jobs", "2", *many], 5, env)
    print(f"TABLE|--jobs 2 vs --jobs 1, 400 definitions: {two.median / serial.median:.2f}x (goal <= 0.65x or "
          f"an automatic choice never slower); --jobs 1 {serial.show()}; --jobs 2 {two.show()}")
    serial, auto = paired([*one_job, *many], [*WMAPLINT, "check", *many], 5, env)
    print(f"TABLE|automatic --jobs vs --jobs 1, 400 definitions: {auto.median / serial.median:.2f}x; "
          f"--jobs 1 {serial.show()}; automatic {auto.show()}")
    serial, auto = paired([*one_job, *definitions], [*WMAPLINT, "check", *definitions], 7, env)
    print(f"TABLE|automatic --jobs vs --jobs 1, the catalog: {auto.median / serial.median:.2f}x; "
          f"--jobs 1 {serial.show()}; automatic {auto.show()}")


if __name__ == "__main__":
    main()
