"""Why the jq parser is hand-written: lark LALR on a jq subset against wmaplint's parser, same expressions.

The lark grammar covers the subset the catalog's expressions use (paths, pipes, comma, alternatives,
comparisons, arithmetic, calls, literals, arrays, objects, if, as-bindings, reduce, optional); expressions it
cannot parse are left out of both timings; lark's figure excludes building an AST with spans from its tree.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

from lark import Lark

from wmaplint.definition.model import build
from wmaplint.jq.parser import _parse_cached
from wmaplint.source import load_text

REPO = Path(__file__).resolve().parents[1]

GRAMMAR = r"""
?start: pipe
?pipe: comma ("|" comma)*
     | term "as" VAR "|" pipe -> bind
?comma: alt ("," alt)*
?alt: orexp ("//" orexp)*
?orexp: andexp ("or" andexp)*
?andexp: cmp ("and" cmp)*
?cmp: sum (CMPOP sum)?
?sum: prod (ADDOP prod)*
?prod: post (MULOP post)*
?post: term suffix* "?"?
?term: "." FIELD? -> dot
     | "." STRING -> dotstr
     | ".." -> recurse
     | VAR
     | NUMBER | STRING | "true" | "false" | "null"
     | "(" pipe ")"
     | "[" pipe? "]" -> array
     | "{" [entry ("," entry)*] "}" -> object
     | NAME ("(" pipe (";" pipe)* ")")? -> call
     | "if" pipe "then" pipe ("elif" pipe "then" pipe)* ("else" pipe)? "end" -> ifexp
     | "reduce" post "as" VAR "(" pipe ";" pipe ")" -> reduce
     | "-" post -> neg
entry: (FIELD | STRING | VAR | "(" pipe ")") (":" alt)?
suffix: "." FIELD "?"? | "[" pipe? "]" "?"? | "[" pipe? ":" pipe? "]" | "." STRING
FIELD: /[a-zA-Z_][a-zA-Z0-9_]*/
NAME: /[a-zA-Z_][a-zA-Z0-9_]*(::[a-zA-Z_][a-zA-Z0-9_]*)*/
VAR: /\$[a-zA-Z_][a-zA-Z0-9_]*/
CMPOP: "==" | "!=" | "<=" | ">=" | "<" | ">"
ADDOP: "+" | "-"
MULOP: "*" | "/" | "%"
%import common.ESCAPED_STRING -> STRING
%import common.SIGNED_NUMBER -> NUMBER
%import common.WS
%ignore WS
"""


def catalog_expressions() -> list[str]:
    out: list[str] = []
    for path in sorted((REPO / "catalog").glob("*.yaml")):
        for doc in load_text(path.read_text(encoding="utf-8"), str(path)).documents:
            definition = build(doc.root)
            if definition is not None:
                out.extend(e.text for e in definition.expressions())
    return out


def median_us(fn: Callable[[str], object], items: list[str], runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for item in items:
            fn(item)
        times.append((time.perf_counter() - start) / len(items))
    return statistics.median(times) * 1e6


def main() -> None:
    start = time.perf_counter()
    lark = Lark(GRAMMAR, parser="lalr")
    build_ms = (time.perf_counter() - start) * 1000
    exprs = catalog_expressions()
    both = []
    for e in exprs:
        try:
            lark.parse(e)
            both.append(e)
        except Exception:
            pass
    print(f"jq_parser_comparison_expressions: {len(both)} of {len(exprs)} count")
    print(f"lark_lalr_grammar_build: {build_ms:.1f} ms")
    print(f"lark_lalr_parse_per_expression: {median_us(lark.parse, both):.1f} us")
    uncached = _parse_cached.__wrapped__  # the parser itself, without the cache by text
    print(f"wmaplint_parse_per_expression_uncached: {median_us(uncached, both):.1f} us")
    deep = "(" * 5000 + "." + ")" * 5000
    try:
        lark.parse(deep)
        print("lark_5000_nested_parentheses: ok")
    except RecursionError:
        print("lark_5000_nested_parentheses: RecursionError")
    except Exception as exc:  # noqa: BLE001 - any refusal is the figure
        print(f"lark_5000_nested_parentheses: {type(exc).__name__}")


if __name__ == "__main__":
    main()
