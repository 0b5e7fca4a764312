"""A parser for the gojq v0.12.19 dialect of jq, producing ``wmaplint.jq.ast`` nodes with offsets.

Hand-written (a lexer driven by a recursive-descent parser with an operator-precedence loop for binary
operators): it is several times faster than a generated LALR parser on the short expressions definitions
hold, and string interpolation needs the parser to drive the lexer anyway. Recursion is bounded: nesting
deeper than ``MAX_NESTING`` brackets/constructs, or a tree deeper than ``MAX_TREE_DEPTH``, is a positioned
``JqSyntaxError`` rather than a ``RecursionError``.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from wmaplint import memo
from wmaplint.jq import ast as jqast

MAX_NESTING = 90
MAX_TREE_DEPTH = 220
EXACT_DIGITS = 4300  # integer literals converted exactly up to this many digits

KEYWORDS = frozenset(
    "or and module import include def as label break null true false if then elif else end try catch reduce "
    "foreach".split()
)

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_QUALIFIED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)?")
_NUMBER = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_FORMAT = re.compile(r"@[A-Za-z0-9_]+")
_STRING_RUN = re.compile(r'[^"\\]+')
_HEX4 = re.compile(r"[0-9a-fA-F]{0,4}")
# looked up by the text at the position (one slice, not a ``startswith`` per operator)
_OPS3 = frozenset({"?//", "//="})
_OPS2 = frozenset({"|=", "+=", "-=", "*=", "/=", "%=", "//", "==", "!=", "<=", ">=", ".."})
_OPS1 = frozenset(".[]{}()|,:;=<>+-*/%?")
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}

# binary operator precedence (higher binds tighter), GOJQ.md §2.2 levels 4..10
_PREC = {
    "//": 1,
    "=": 2, "|=": 2, "+=": 2, "-=": 2, "*=": 2, "/=": 2, "%=": 2, "//=": 2,
    "or": 3, "and": 4,
    "==": 5, "!=": 5, "<": 5, "<=": 5, ">": 5, ">=": 5,
    "+": 6, "-": 6, "*": 7, "/": 7, "%": 7,
}  # fmt: skip
_RIGHT_ASSOC = frozenset({"//"})
_NON_ASSOC_LEVELS = frozenset({2, 5})


def number_value(text: str) -> int | float:
    """The value gojq gives a number literal (GOJQ.md §1): an integer literal is an exact integer of any
    size, any other literal a float64, and one that overflows is the largest float64.

    Python converts decimal text to an integer in quadratic time and refuses more than 4,300 digits, so an
    integer literal longer than ``EXACT_DIGITS`` keeps only its magnitude: it is beyond float64's range, so it
    becomes the largest float64, as it would in C jq. No analysis needs more of it than that.
    """
    if "." in text or "e" in text or "E" in text:
        return min(float(text), sys.float_info.max)
    digits = text.lstrip("0") or "0"
    if len(digits) <= EXACT_DIGITS:
        return int(digits)
    return sys.float_info.max


def _comment_end(text: str, pos: int) -> int:
    """The offset of the line break that ends the comment starting at ``pos``, or ``len(text)`` when it runs
    to the end. A backslash escapes the next character: `\\` is a backslash, and one before the line break
    continues the comment onto the next line (GOJQ.md §1)."""
    n = len(text)
    while pos < n:
        c = text[pos]
        if c == "\\":
            pos += 2
            if pos - 1 < n and text[pos - 1] == "\r" and pos < n and text[pos] == "\n":
                pos += 1
            continue
        if c == "\n":
            return pos
        pos += 1
    return n


def trailing_comment(text: str, last_token_end: int) -> int | None:
    """Where the comment after the last token (ending at ``last_token_end``) starts when it runs to the end of
    ``text``, so that text appended on the same line is commented out; None when there is none."""
    pos, n = last_token_end, len(text)
    while pos < n:
        if text[pos] == "#":
            start, pos = pos, _comment_end(text, pos)
            if pos >= n:
                return start
        pos += 1  # whitespace and closing brackets
    return None


class JqSyntaxError(Exception):
    """A jq parse error: ``message`` and the offending ``start``..``end`` offsets (end exclusive)."""

    def __init__(self, message: str, start: int, end: int) -> None:
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = end

    # picklable with the extra arguments
    def __reduce__(self) -> tuple[type[JqSyntaxError], tuple[str, int, int]]:
        return (JqSyntaxError, (self.message, self.start, self.end))


class _Tok:
    __slots__ = ("kind", "text", "start", "end")

    def __init__(self, kind: str, text: str, start: int, end: int) -> None:
        self.kind = kind  # op kw ident field var format num str eof
        self.text = text
        self.start = start
        self.end = end


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


def _describe(tok: _Tok) -> str:
    if tok.kind == "eof":
        return "end of expression"
    if tok.kind == "str":
        return "string"
    if tok.kind == "num":
        return f"number `{tok.text}`"
    return f"`{tok.text}`"


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)
        self.depth = 0
        self.tok = self._lex(0)

    # --- lexer ---------------------------------------------------------------------------------------------

    def _error(self, message: str, start: int, end: int) -> JqSyntaxError:
        return JqSyntaxError(message, start, end)

    def _lex(self, pos: int) -> _Tok:
        text, n = self.text, self.n
        while pos < n:
            c = text[pos]
            if c in " \t\r\n":
                pos += 1
            elif c == "#":
                pos = self._skip_comment(pos)
            else:
                break
        if pos >= n:
            return _Tok("eof", "", n, n)
        c = text[pos]
        if c == '"':
            return _Tok("str", '"', pos, pos + 1)
        if c == ".":
            nxt = text[pos + 1] if pos + 1 < n else ""
            if nxt == ".":
                return _Tok("op", "..", pos, pos + 2)
            if "0" <= nxt <= "9":
                return self._lex_number(pos)
            m = _IDENT.match(text, pos + 1)
            if m:
                return _Tok("field", m.group(), pos, m.end())
            return _Tok("op", ".", pos, pos + 1)
        if "0" <= c <= "9":
            return self._lex_number(pos)
        if c == "_" or ("a" <= c <= "z") or ("A" <= c <= "Z"):
            m = _QUALIFIED.match(text, pos)
            assert m
            end = m.end()
            if text.startswith("::", end):
                raise self._error(
                    f"unexpected `{text[pos : end + 2]}`: a name has at most one `::`", pos, end + 2
                )
            word = m.group()
            return _Tok("kw" if word in KEYWORDS else "ident", word, pos, end)
        if c == "$":
            m = _QUALIFIED.match(text, pos + 1)
            if not m:
                raise self._error("unexpected `$`: a variable name must follow it directly", pos, pos + 1)
            return _Tok("var", m.group(), pos, m.end())
        if c == "@":
            m = _FORMAT.match(text, pos)
            if not m:
                raise self._error("unexpected `@`: a format name must follow it directly", pos, pos + 1)
            return _Tok("format", m.group()[1:], pos, m.end())
        three = text[pos : pos + 3]
        if three in _OPS3:
            return _Tok("op", three, pos, pos + 3)
        two = three[:2]
        if two in _OPS2:
            return _Tok("op", two, pos, pos + 2)
        if c in _OPS1:
            return _Tok("op", c, pos, pos + 1)
        if c == "!":
            raise self._error("unexpected `!`: use `!=` for inequality or `not` for negation", pos, pos + 1)
        if c == "&":
            raise self._error("unexpected `&`: jq spells logical and as `and`", pos, pos + 1)
        if c == "'":
            raise self._error("unexpected `'`: jq strings use double quotes", pos, pos + 1)
        raise self._error(f"unexpected character {c!r}", pos, pos + 1)

    def _skip_comment(self, pos: int) -> int:
        return min(_comment_end(self.text, pos) + 1, self.n)

    def _lex_number(self, pos: int) -> _Tok:
        text = self.text
        m = _NUMBER.match(text, pos)
        assert m
        end = m.end()
        nxt = text[end] if end < self.n else ""
        if nxt == "_" or nxt.isalpha() or (nxt == "." and "." in m.group()):
            bad_end = end + 1
            raise self._error(f"invalid number `{text[pos:bad_end]}`", pos, bad_end)
        return _Tok("num", m.group(), pos, end)

    def advance(self) -> _Tok:
        tok = self.tok
        self.tok = self._lex(tok.end)
        return tok

    # --- helpers -------------------------------------------------------------------------------------------

    def _is_op(self, text: str) -> bool:
        return self.tok.kind == "op" and self.tok.text == text

    def _is_kw(self, text: str) -> bool:
        return self.tok.kind == "kw" and self.tok.text == text

    def _where(self, offset: int) -> str:
        line, col = line_col(self.text, offset)
        return f"{line}:{col}"

    def _unexpected(self, expected: str | None = None) -> JqSyntaxError:
        tok = self.tok
        msg = f"unexpected {_describe(tok)}"
        if tok.kind == "op" and tok.text == "?//":
            return self._error(
                "unexpected `?//` (it only separates destructuring patterns); write `? // ` with a space",
                tok.start,
                tok.end,
            )
        if expected:
            msg += f", expected {expected}"
        return self._error(msg, tok.start, tok.end)

    def _expect(self, kind: str, text: str, opener: _Tok | None = None) -> _Tok:
        tok = self.tok
        if tok.kind == kind and tok.text == text:
            return self.advance()
        if opener is not None and tok.kind == "eof":
            raise self._error(
                f"`{opener.text}` at {self._where(opener.start)} has no `{text}`", opener.start, opener.end
            )
        if opener is not None:
            raise self._error(
                f"unexpected {_describe(tok)}, expected `{text}` (for `{opener.text}` at "
                f"{self._where(opener.start)})",
                tok.start,
                tok.end,
            )
        raise self._unexpected(f"`{text}`")

    def _enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            tok = self.tok
            raise self._error("nesting too deep", tok.start, tok.end)

    # --- query level ---------------------------------------------------------------------------------------

    def parse_program(self) -> jqast.Node:
        if self.tok.kind == "eof":
            raise self._error('empty expression (gojq: missing query (try "."))', 0, self.n)
        directives: list[tuple[_Tok, str | None, str | None]] = []
        while self.tok.kind == "kw" and self.tok.text in ("module", "import", "include"):
            directives.append(self._parse_directive())
        body: jqast.Node | None = None
        if self.tok.kind != "eof":
            body = self.parse_pipe(top=True)
            if self.tok.kind != "eof":
                if self._is_op(")") or self._is_op("]") or self._is_op("}"):
                    raise self._error(
                        f"unexpected `{self.tok.text}`: nothing to close", self.tok.start, self.tok.end
                    )
                raise self._unexpected()
        for kw, path, alias in reversed(directives):
            end = body.end if body is not None else self.n
            body = jqast.Import(kw.start, end, kw.text, path, alias, body)
        if body is None:
            raise self._error('only module directives, no query (gojq: missing query (try "."))', 0, self.n)
        return body

    def _parse_directive(self) -> tuple[_Tok, str | None, str | None]:
        kw = self.advance()
        path: str | None = None
        alias: str | None = None
        if kw.text == "module":
            if not self._is_op("{"):
                raise self._unexpected("a constant object after `module`")
            self._constant_object()
        else:
            if self.tok.kind != "str":
                raise self._unexpected(f"a module path string after `{kw.text}`")
            lit = self._parse_string(None)
            if not isinstance(lit, jqast.Literal):
                raise self._error("a module path cannot be interpolated", lit.start, lit.end)
            path = str(lit.value)
            if kw.text == "import":
                self._expect("kw", "as")
                if self.tok.kind not in ("ident", "var"):
                    raise self._unexpected("a module name")
                alias = ("$" if self.tok.kind == "var" else "") + self.advance().text
            if self._is_op("{"):
                self._constant_object()
        self._expect("op", ";")
        return kw, path, alias

    def _constant_object(self) -> None:
        """Module metadata: keys and values are constants only (no negative numbers, no interpolation)."""
        obj = self.parse_postfix()
        allowed = (jqast.ObjectCons, jqast.ObjectEntry, jqast.ArrayCons, jqast.Comma, jqast.Literal)
        for node in jqast.walk(obj):
            if not isinstance(node, allowed) or (
                isinstance(node, jqast.ObjectEntry)
                and (node.value is None or node.key_kind in ("var", "expr"))
            ):
                raise self._error("module metadata must be a constant object", node.start, node.end)

    def parse_pipe(self, top: bool = False) -> jqast.Node:
        """query := def...; query | label $x | query | expr as pats | query | query '|' query |
        query ',' query."""
        self._enter()
        # ("def", token, head), ("label", token, name), ("bind", expr, patterns), ("comma" or "pipe", expr)
        frames: list[tuple[Any, ...]] = []
        node: jqast.Node | None = None
        while True:
            tok = self.tok
            if tok.kind == "kw" and tok.text == "def":
                head = self._parse_funcdef()
                if top and self.tok.kind == "eof":
                    name, params, body, name_tok = head
                    node = jqast.FuncDef(
                        tok.start, body.end, name, params, body, None, name_tok.start, name_tok.end
                    )
                    break
                frames.append(("def", tok, head))
                continue
            if tok.kind == "kw" and tok.text == "label":
                self.advance()
                if self.tok.kind != "var":
                    raise self._unexpected("a `$name` after `label`")
                name = self.advance().text
                self._expect("op", "|")
                frames.append(("label", tok, name))
                continue
            expr = self.parse_expr()
            nxt = self.tok
            if nxt.kind == "kw" and nxt.text == "as":
                self.advance()
                patterns = self._parse_patterns()
                self._expect("op", "|")
                frames.append(("bind", expr, patterns))
                continue
            if nxt.kind == "op" and nxt.text == ",":
                self.advance()
                if frames and frames[-1][0] == "comma":
                    left = frames[-1][1]
                    frames[-1] = ("comma", jqast.Comma(left.start, expr.end, left, expr))
                else:
                    frames.append(("comma", expr))
                continue
            if nxt.kind == "op" and nxt.text == "|":
                self.advance()
                if frames and frames[-1][0] == "comma":
                    left = frames.pop()[1]
                    expr = jqast.Comma(left.start, expr.end, left, expr)
                frames.append(("pipe", expr))
                continue
            node = expr
            break
        assert node is not None
        while frames:
            frame = frames.pop()
            kind = frame[0]
            if kind == "comma":
                node = jqast.Comma(frame[1].start, node.end, frame[1], node)
            elif kind == "pipe":
                node = jqast.Pipe(frame[1].start, node.end, frame[1], node)
            elif kind == "bind":
                node = jqast.Bind(frame[1].start, node.end, frame[1], frame[2], node)
            elif kind == "label":
                node = jqast.Label(frame[1].start, node.end, frame[2], node)
            else:  # def
                name, params, body, name_tok = frame[2]
                node = jqast.FuncDef(
                    frame[1].start, node.end, name, params, body, node, name_tok.start, name_tok.end
                )
        self.depth -= 1
        return node

    def _parse_funcdef(self) -> tuple[str, tuple[str, ...], jqast.Node, _Tok]:
        def_tok = self.advance()
        name_tok = self.tok
        if name_tok.kind == "kw":
            raise self._error(
                f"`{name_tok.text}` is a keyword and cannot name a function", name_tok.start, name_tok.end
            )
        if name_tok.kind != "ident" or "::" in name_tok.text:
            raise self._unexpected("a function name after `def`")
        self.advance()
        params: list[str] = []
        if self._is_op("("):
            open_tok = self.advance()
            while True:
                if self.tok.kind == "ident" and "::" not in self.tok.text:
                    params.append(self.advance().text)
                elif self.tok.kind == "var":
                    params.append("$" + self.advance().text)
                else:
                    raise self._unexpected("a parameter name (`f` or `$v`)")
                if self._is_op(";"):
                    self.advance()
                    continue
                self._expect("op", ")", open_tok)
                break
        self._expect("op", ":")
        body = self.parse_pipe()
        self._expect("op", ";", def_tok)
        return name_tok.text, tuple(params), body, name_tok

    # --- patterns ------------------------------------------------------------------------------------------

    def _parse_patterns(self) -> tuple[jqast.Node, ...]:
        patterns = [self._parse_pattern()]
        while self._is_op("?//"):
            self.advance()
            patterns.append(self._parse_pattern())
        return tuple(patterns)

    def _parse_pattern(self) -> jqast.Node:
        tok = self.tok
        if tok.kind == "var":
            self.advance()
            return jqast.VarPattern(tok.start, tok.end, tok.text)
        self._enter()
        try:
            if self._is_op("["):
                self.advance()
                if self._is_op("]"):
                    raise self._unexpected("a pattern (an array pattern needs at least one element)")
                elements = [self._parse_pattern()]
                while self._is_op(","):
                    self.advance()
                    elements.append(self._parse_pattern())
                close = self._expect("op", "]", tok)
                return jqast.ArrayPattern(tok.start, close.end, tuple(elements))
            if self._is_op("{"):
                self.advance()
                entries: list[jqast.ObjectPatternEntry] = []
                while True:
                    entries.append(self._parse_object_pattern_entry())
                    if self._is_op(","):
                        self.advance()
                        continue
                    close = self._expect("op", "}", tok)
                    return jqast.ObjectPattern(tok.start, close.end, tuple(entries))
            raise self._unexpected("a pattern (`$name`, `[...]` or `{...}`)")
        finally:
            self.depth -= 1

    def _parse_object_pattern_entry(self) -> jqast.ObjectPatternEntry:
        tok = self.tok
        if tok.kind == "var":
            self.advance()
            if self._is_op(":"):
                self.advance()
                value = self._parse_pattern()
                return jqast.ObjectPatternEntry(tok.start, value.end, tok.text, None, value)
            return jqast.ObjectPatternEntry(tok.start, tok.end, tok.text, None, None)
        key: jqast.Node
        if tok.kind in ("ident", "kw") and "::" not in tok.text:
            self.advance()
            key = jqast.Literal(tok.start, tok.end, tok.text)
        elif tok.kind == "str":
            key = self._parse_string(None)
        elif self._is_op("("):
            self.advance()
            key = self.parse_pipe()
            self._expect("op", ")", tok)
        else:
            raise self._unexpected("an object pattern entry (`$name`, `key: pattern`)")
        if not self._is_op(":"):
            raise self._unexpected("`:` and a pattern (only `$name` entries may stand alone)")
        self.advance()
        value = self._parse_pattern()
        return jqast.ObjectPatternEntry(tok.start, value.end, None, key, value)

    # --- expression level ----------------------------------------------------------------------------------

    def _binop(self) -> str | None:
        tok = self.tok
        if tok.kind == "op":
            return tok.text if tok.text in _PREC else None
        if tok.kind == "kw" and tok.text in ("and", "or"):
            return tok.text
        return None

    def parse_expr(self) -> jqast.Node:
        """Binary operators by precedence, without recursion (an operand stack)."""
        operands: list[jqast.Node] = [self.parse_unary()]
        ops: list[tuple[str, int, int, int]] = []  # (op, precedence, start, end)

        def reduce_top() -> None:
            op, _, op_start, _ = ops.pop()
            right = operands.pop()
            left = operands.pop()
            if op in jqast.ASSIGN_OPS:
                operands.append(jqast.Assign(left.start, right.end, op, left, right, op_start))
            else:
                operands.append(jqast.Binary(left.start, right.end, op, left, right, op_start))

        while True:
            op = self._binop()
            if op is None:
                break
            prec = _PREC[op]
            while ops and (ops[-1][1] > prec or (ops[-1][1] == prec and op not in _RIGHT_ASSOC)):
                if ops[-1][1] == prec and prec in _NON_ASSOC_LEVELS:
                    tok = self.tok
                    raise self._error(
                        f"unexpected `{op}`: `{ops[-1][0]}` and `{op}` cannot be chained without parentheses",
                        tok.start,
                        tok.end,
                    )
                reduce_top()
            tok = self.advance()
            ops.append((op, prec, tok.start, tok.end))
            operands.append(self.parse_unary())
        while ops:
            reduce_top()
        return operands[0]

    def parse_unary(self) -> jqast.Node:
        signs: list[_Tok] = []
        while self.tok.kind == "op" and self.tok.text in ("-", "+"):
            signs.append(self.advance())
        node = self.parse_postfix()
        for sign in reversed(signs):
            node = jqast.Neg(sign.start, node.end, node, sign.text)
        return node

    def parse_postfix(self) -> jqast.Node:
        self._enter()
        node, indexed = self._parse_primary()
        while True:
            tok = self.tok
            if tok.kind == "field":
                self.advance()
                node = jqast.Field(
                    node.start, tok.end, node, tok.text, False, tok.start, tok.start + 1, tok.end
                )
                indexed = True
            elif tok.kind == "op" and tok.text == ".":
                self.advance()
                if self.tok.kind == "str":
                    node = self._string_field(node, node.start, tok.start)
                elif self._is_op("["):
                    node = self._bracket_suffix(node, node.start, tok.start)
                else:
                    raise self._unexpected("a field name, a string or `[` after `.`")
                indexed = True
            elif tok.kind == "op" and tok.text == "[":
                node = self._bracket_suffix(node, node.start, tok.start)
                indexed = True
            elif tok.kind == "op" and tok.text == "?":
                self.advance()
                if (indexed and isinstance(node, (jqast.Field, jqast.Index, jqast.Slice, jqast.Iterate))
                        and not node.optional):
                    node = _with_optional(node, tok.end)
                else:
                    node = jqast.Optional(node.start, tok.end, node)
                indexed = False
            else:
                break
        self.depth -= 1
        return node

    def _string_field(self, target: jqast.Node | None, start: int, seg_start: int) -> jqast.Node:
        key = self._parse_string(None)
        if isinstance(key, jqast.Literal):
            return jqast.Field(start, key.end, target, str(key.value), False, seg_start, key.start, key.end)
        return jqast.Index(start, key.end, target, key, False, seg_start)

    def _bracket_suffix(self, target: jqast.Node | None, start: int, seg_start: int) -> jqast.Node:
        open_tok = self.advance()  # `[`
        if self._is_op("]"):
            close = self.advance()
            return jqast.Iterate(start, close.end, target, False, seg_start)
        lower: jqast.Node | None = None
        if not self._is_op(":"):
            lower = self.parse_pipe()
        if self._is_op(":"):
            self.advance()
            upper: jqast.Node | None = None
            if self._is_op("]"):
                if lower is None:
                    raise self._unexpected("a slice bound (`.[:]` is not allowed)")
            else:
                upper = self.parse_pipe()
            close = self._expect("op", "]", open_tok)
            return jqast.Slice(start, close.end, target, lower, upper, False, seg_start)
        close = self._expect("op", "]", open_tok)
        assert lower is not None
        return jqast.Index(start, close.end, target, lower, False, seg_start)

    # --- terms ---------------------------------------------------------------------------------------------

    def _parse_primary(self) -> tuple[jqast.Node, bool]:
        tok = self.tok
        kind, text = tok.kind, tok.text
        if kind == "field":
            self.advance()
            return jqast.Field(tok.start, tok.end, None, text, False, tok.start, tok.start + 1, tok.end), True
        if kind == "op":
            if text == ".":
                self.advance()
                if self.tok.kind == "str":
                    return self._string_field(None, tok.start, tok.start), True
                if self._is_op("["):
                    return self._bracket_suffix(None, tok.start, tok.start), True
                return jqast.Identity(tok.start, tok.end), False
            if text == "..":
                self.advance()
                return jqast.RecurseDefault(tok.start, tok.end), False
            if text == "(":
                self.advance()
                if self._is_op(")"):
                    raise self._unexpected("a query inside `( )`")
                inner = self.parse_pipe()
                self._expect("op", ")", tok)
                return inner, False
            if text == "[":
                self.advance()
                if self._is_op("]"):
                    close = self.advance()
                    return jqast.ArrayCons(tok.start, close.end, None), False
                body = self.parse_pipe()
                close = self._expect("op", "]", tok)
                return jqast.ArrayCons(tok.start, close.end, body), False
            if text == "{":
                return self._parse_object(), False
            if text in ("-", "+"):
                sign = self.advance()
                term = self.parse_postfix()
                return jqast.Neg(sign.start, term.end, term, sign.text), False
            raise self._unexpected()
        if kind == "num":
            self.advance()
            return jqast.Literal(tok.start, tok.end, number_value(text)), False
        if kind == "str":
            return self._parse_string(None), False
        if kind == "format":
            self.advance()
            if self.tok.kind == "str":
                return self._parse_string(text, start=tok.start), False
            return jqast.Format(tok.start, tok.end, text), False
        if kind == "var":
            self.advance()
            return jqast.VarRef(tok.start, tok.end, text), False
        if kind == "ident":
            return self._parse_call(), False
        if kind == "kw":
            if text in ("null", "true", "false"):
                self.advance()
                return jqast.Literal(
                    tok.start, tok.end, {"null": None, "true": True, "false": False}[text]
                ), False
            if text == "if":
                return self._parse_if(), False
            if text == "try":
                self.advance()
                body = self.parse_unary()
                handler: jqast.Node | None = None
                if self._is_kw("catch"):
                    self.advance()
                    handler = self.parse_unary()
                end = handler.end if handler is not None else body.end
                return jqast.Try(tok.start, end, body, handler), False
            if text in ("reduce", "foreach"):
                return self._parse_fold(), False
            if text == "break":
                self.advance()
                if self.tok.kind != "var":
                    raise self._unexpected("a `$name` after `break`")
                var = self.advance()
                return jqast.Break(tok.start, var.end, var.text), False
            if text in ("def", "label"):
                raise self._error(
                    f"`{text}` cannot appear inside an operator expression; wrap it in parentheses",
                    tok.start,
                    tok.end,
                )
            raise self._unexpected()
        raise self._unexpected()

    def _parse_call(self) -> jqast.Node:
        name_tok = self.advance()
        if not self._is_op("("):
            return jqast.FuncCall(name_tok.start, name_tok.end, name_tok.text, (), name_tok.end)
        open_tok = self.advance()
        if self._is_op(")"):
            raise self._unexpected(
                f"an argument (`{name_tok.text}()` is not allowed; write `{name_tok.text}`)"
            )
        args = [self.parse_pipe()]
        while self._is_op(";"):
            self.advance()
            args.append(self.parse_pipe())
        if self._is_op(","):
            pass  # a comma inside an argument is already part of the argument query
        close = self._expect("op", ")", open_tok)
        return jqast.FuncCall(name_tok.start, close.end, name_tok.text, tuple(args), name_tok.end)

    def _parse_if(self) -> jqast.Node:
        if_tok = self.advance()
        cond = self.parse_pipe()
        self._expect("kw", "then", if_tok)
        then = self.parse_pipe()
        elifs: list[tuple[jqast.Node, jqast.Node]] = []
        while self._is_kw("elif"):
            self.advance()
            c = self.parse_pipe()
            self._expect("kw", "then", if_tok)
            elifs.append((c, self.parse_pipe()))
        else_: jqast.Node | None = None
        if self._is_kw("else"):
            self.advance()
            else_ = self.parse_pipe()
            if self._is_kw("elif"):
                raise self._unexpected("`end` (`elif` cannot follow `else`)")
        end_tok = self._expect("kw", "end", if_tok)
        return jqast.If(if_tok.start, end_tok.end, cond, then, tuple(elifs), else_)

    def _parse_fold(self) -> jqast.Node:
        kw = self.advance()
        source = self.parse_expr()
        self._expect("kw", "as", kw)
        pattern = self._parse_pattern()
        if self._is_op("?//"):
            raise self._unexpected(f"`(` (`?//` alternatives are not allowed in `{kw.text}`)")
        open_tok = self.tok
        self._expect("op", "(")
        init = self.parse_pipe()
        self._expect("op", ";", open_tok)
        update = self.parse_pipe()
        extract: jqast.Node | None = None
        if kw.text == "foreach" and self._is_op(";"):
            self.advance()
            extract = self.parse_pipe()
        close = self._expect("op", ")", open_tok)
        if kw.text == "reduce":
            return jqast.Reduce(kw.start, close.end, source, pattern, init, update)
        return jqast.Foreach(kw.start, close.end, source, pattern, init, update, extract)

    def _parse_object(self) -> jqast.Node:
        open_tok = self.advance()
        entries: list[jqast.ObjectEntry] = []
        while not self._is_op("}"):
            entries.append(self._parse_object_entry())
            if self._is_op(","):
                self.advance()
                continue
            if not self._is_op("}"):
                self._expect("op", "}", open_tok)
        close = self.advance()
        return jqast.ObjectCons(open_tok.start, close.end, tuple(entries))

    def _parse_object_entry(self) -> jqast.ObjectEntry:
        tok = self.tok
        key: jqast.Node
        if tok.kind in ("ident", "kw") and "::" not in tok.text:
            self.advance()
            key, key_kind = jqast.Literal(tok.start, tok.end, tok.text), "ident"
        elif tok.kind == "var":
            self.advance()
            key, key_kind = jqast.VarRef(tok.start, tok.end, tok.text), "var"
        elif tok.kind == "str":
            key, key_kind = self._parse_string(None), "string"
        elif tok.kind == "op" and tok.text == "(":
            self.advance()
            key, key_kind = self.parse_pipe(), "expr"
            self._expect("op", ")", tok)
        elif tok.kind == "format":
            raise self._error("a format cannot be an object key in gojq; use a string", tok.start, tok.end)
        elif tok.kind == "num":
            raise self._error("a number cannot be an object key; use a string", tok.start, tok.end)
        else:
            raise self._unexpected("an object key")
        if self._is_op(":"):
            self.advance()
            value = self._parse_object_value()
            return jqast.ObjectEntry(tok.start, value.end, key, value, key_kind)
        if key_kind == "expr":
            raise self._unexpected("`:` after a computed key")
        return jqast.ObjectEntry(tok.start, key.end if key_kind != "expr" else tok.end, key, None, key_kind)

    def _parse_object_value(self) -> jqast.Node:
        parts = [self.parse_expr()]
        while self._is_op("|"):
            self.advance()
            parts.append(self.parse_expr())
        if self.tok.kind == "kw" and self.tok.text == "as":
            raise self._unexpected("`,` or `}` (wrap a binding inside an object value in parentheses)")
        node = parts.pop()
        while parts:
            left = parts.pop()
            node = jqast.Pipe(left.start, node.end, left, node)
        return node

    # --- strings -------------------------------------------------------------------------------------------

    def _parse_string(self, fmt: str | None, start: int | None = None) -> jqast.Node:
        """Parse the string whose opening quote is the current token; leaves the token after it current."""
        text, n = self.text, self.n
        quote = self.tok.start
        node_start = quote if start is None else start
        pos = quote + 1
        parts: list[str | jqast.Node] = []
        buf: list[str] = []
        while True:
            if pos >= n:
                raise self._error("unterminated string", quote, n)
            c = text[pos]
            if c == '"':
                pos += 1
                break
            if c != "\\":
                m = _STRING_RUN.match(text, pos)
                assert m
                buf.append(m.group())
                pos = m.end()
                continue
            esc = text[pos + 1] if pos + 1 < n else ""
            if esc == "":
                raise self._error("unterminated string", quote, n)
            if esc in _ESCAPES:
                buf.append(_ESCAPES[esc])
                pos += 2
            elif esc == "u":
                code, pos = self._unicode_escape(pos)
                buf.append(code)
            elif esc == "(":
                if buf:
                    parts.append("".join(buf))
                    buf = []
                self._enter()
                self.tok = self._lex(pos + 2)
                open_tok = _Tok("op", "\\(", pos, pos + 2)
                if self._is_op(")"):
                    raise self._unexpected("a query inside `\\( )`")
                inner = self.parse_pipe()
                if not self._is_op(")"):
                    self._expect("op", ")", open_tok)
                self.depth -= 1
                parts.append(inner)
                pos = self.tok.end
            else:
                raise self._error(f"invalid escape sequence `\\{esc}` in string", pos, pos + 2)
        if buf:
            parts.append("".join(buf))
        self.tok = self._lex(pos)
        if fmt is None and not any(isinstance(p, jqast.Node) for p in parts):
            return jqast.Literal(node_start, pos, "".join(p for p in parts if isinstance(p, str)))
        return jqast.StringInterp(node_start, pos, tuple(parts), fmt)

    def _unicode_escape(self, pos: int) -> tuple[str, int]:
        text = self.text
        m = _HEX4.match(text, pos + 2)
        assert m
        if len(m.group()) < 4:
            raise self._error(
                f"invalid escape sequence `{text[pos : m.end()]}` in string (`\\u` needs four hex digits)",
                pos,
                m.end() + (1 if m.end() < self.n else 0),
            )
        code = int(m.group(), 16)
        end = m.end()
        if 0xD800 <= code < 0xDC00 and text.startswith("\\u", end):
            low = _HEX4.match(text, end + 2)
            if low and len(low.group()) == 4 and 0xDC00 <= int(low.group(), 16) < 0xE000:
                combined = 0x10000 + ((code - 0xD800) << 10) + (int(low.group(), 16) - 0xDC00)
                return chr(combined), low.end()
        if 0xD800 <= code < 0xE000:
            return "\ufffd", end  # a lone surrogate becomes U+FFFD in gojq
        return chr(code), end


def _with_optional(node: jqast.Node, end: int) -> jqast.Node:
    if isinstance(node, jqast.Field):
        return jqast.Field(
            node.start, end, node.target, node.name, True, node.seg_start, node.name_start, node.name_end
        )
    if isinstance(node, jqast.Index):
        return jqast.Index(node.start, end, node.target, node.index, True, node.seg_start)
    if isinstance(node, jqast.Slice):
        return jqast.Slice(node.start, end, node.target, node.lower, node.upper, True, node.seg_start)
    assert isinstance(node, jqast.Iterate)
    return jqast.Iterate(node.start, end, node.target, True, node.seg_start)


def _check_tree_depth(root: jqast.Node) -> None:
    stack: list[tuple[jqast.Node, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_TREE_DEPTH:
            raise JqSyntaxError("expression too deep (nesting or chaining too long)", node.start, node.end)
        for child in jqast.children(node):
            stack.append((child, depth + 1))


@memo.lru_cache(maxsize=8192, pure=True)
def _parse_cached(text: str) -> jqast.Node | JqSyntaxError:
    try:
        node = _Parser(text).parse_program()
        _check_tree_depth(node)
        return node
    except JqSyntaxError as err:
        return err
    except RecursionError:  # belt and braces: the limits above should make this unreachable
        return JqSyntaxError("nesting too deep", 0, len(text))


def parse(text: str) -> jqast.Node:
    """Parse a gojq program. Raises ``JqSyntaxError`` (with offsets) on invalid input. Results are cached."""
    result = _parse_cached(text)
    if isinstance(result, JqSyntaxError):
        raise JqSyntaxError(result.message, result.start, result.end)
    return result


def try_parse(text: str) -> jqast.Node | JqSyntaxError:
    """Like ``parse`` but returns the error instead of raising it."""
    return _parse_cached(text)
