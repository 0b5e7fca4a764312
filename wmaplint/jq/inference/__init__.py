"""The jq type interpreter: an expression evaluated over schema types instead of values.

``interpreter.infer`` walks the syntax tree with the type of its input; each step maps a type to the type of
its outputs (the union over the output stream). What is wrong on the way is recorded as findings
(``findings``) with offsets into the expression, for the schema rules to word. Unknown stays ``any`` and never
gives a finding: precision where the schema is known, silence elsewhere.

The walk is one ``Interpreter`` (``interpreter``: its state and the dispatch over the tree) that holds its
parts, each given the walk as the protocol ``walk.Walk`` (so no part imports the interpreter that holds it):
``navigation`` (fields, indexes, iteration), ``operators`` (literals, operators, conditions; given
navigation) and ``calls`` (builtins and user functions; given both). ``guards`` tells which paths the
conditions around a node have proven present; ``queries`` asks the walk what the editor needs at a cursor,
through the ``walk.Recording`` the interpreter is given.
"""
