"""The node classes' methods come from the module written for them, and from the same text compiled at import
when a class has changed since it was written."""

from __future__ import annotations

from pathlib import Path

import pytest

from wmaplint.jq import ast, node_methods


def test_the_written_methods_are_those_of_the_classes_now() -> None:
    written = Path(node_methods.__file__).read_text(encoding="utf-8")
    assert written == ast.methods_source(), "run `python -m wmaplint.jq.ast` to write node_methods.py again"
    assert ast.Field.__init__ is node_methods.init_Field


def test_a_class_changed_since_gets_its_methods_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(node_methods.FIELDS, "Neg", ("start", "end", "term"))
    methods = ast._methods()
    assert methods["init_Neg"] is not node_methods.init_Neg
    neg = ast.Neg.__new__(ast.Neg)
    methods["init_Neg"](neg, 1, 3, None)
    assert (neg.start, neg.end, neg.term, neg.op) == (1, 3, None, "-")
    same = ast.Neg(1, 3, None)
    assert methods["eq_Neg"](neg, same) and methods["hash_Neg"](neg) == hash(same)
