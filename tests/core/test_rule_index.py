"""A check of definitions imports first only the rule modules that run on every definition (rules/index.py);
the rest come when a fact needs its wording, another document its checks or the rule registry is read, and
the checks run in the order a full load gives them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from wmaplint.rules import index
from wmaplint.rules.document.yaml_syntax import RULE as YAML_SYNTAX

SNAPSHOT = """
from wmaplint import rules
def hooks():
    return ([r.id for r, _ in rules.DEFINITION_CHECKS], [c.rule.id for c in rules.EXPRESSION_CHECKS],
            [f.__module__ + f.__qualname__ for f in rules.DEFINITION_ANALYSES],
            sorted(k.__name__ for k in rules.REFINERS), sorted(rules.document_kinds()))
"""


def _python(code: str) -> str:
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         check=True)
    return run.stdout


def test_the_index_is_that_of_the_rule_modules_now() -> None:
    written = Path(index.__file__).read_text(encoding="utf-8")
    made = _python("import sys; from wmaplint.rules import index_source; sys.stdout.write(index_source())")
    assert written == made, "run `python -m wmaplint.rules` to write rules/index.py again"


def test_definition_rules_first_run_in_the_order_of_a_full_load_and_the_registry_completes_itself() -> None:
    partial = _python(SNAPSHOT + """
from wmaplint.diagnostics import RULES
rules.load_definition_rules()
first = hooks()
registered = len(dict.keys(RULES))
print(first, registered < len(RULES) == len(dict.keys(RULES)), first == hooks())
""")
    full = _python(SNAPSHOT + "rules.load(); print(hooks(), True, True)")
    assert partial == full


def test_a_clean_definition_is_checked_without_the_wordings_and_a_fault_with_them(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("kind: Karta\nspec: [unclosed\n", encoding="utf-8")
    clean = Path(__file__).parents[2] / "catalog" / "batch-job-v1.yaml"
    code = """
import sys
from wmaplint.engine import lint_paths
outcome = lint_paths([sys.argv[1]])
imported = [m for m in sys.modules if m.startswith("wmaplint.rules.")]
print(sorted({d.rule for d in outcome.diagnostics}), "wmaplint.rules.document.yaml_syntax" in imported)
"""
    run = [sys.executable, "-c", code]
    assert subprocess.run([*run, str(clean)], capture_output=True, text=True, timeout=120,
                          check=True).stdout.split()[-1] == "False"
    said = subprocess.run([*run, str(broken)], capture_output=True, text=True, timeout=120, check=True).stdout
    assert said.split()[-1] == "True" and f"'{YAML_SYNTAX.id}'" in said
