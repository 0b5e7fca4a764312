"""Rule packs: rules of the user's own, written as YAML (JSONPath ``given`` + CEL ``assert``) instead of
Python, and the packs shipped with wmaplint (the top-level ``packs/`` folder, ``wmaplint/_shipped/packs`` in
a wheel).

``loader`` reads a pack (``load_pack``, ``load_pack_text``: problems are findings of ``problems`` on the pack
file, never exceptions), ``in_use`` knows the packs a configuration puts in force and runs their rules on a
definition (``run_packs``), ``run`` evaluates loaded rules, ``jsonpath`` and ``paths`` compile and type the
queries, ``record`` remembers compiled packs in the user cache, ``schema`` is the pack format.
"""
