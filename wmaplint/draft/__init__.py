"""`wmaplint new`: a definition drafted from a workload kind's schema and the project's knowledge files.

``target`` picks the schema (a CRD file, or a kind the schema store serves), ``shapes`` finds where the kind
keeps its pods, ``compose`` turns that into components, scale, selectors, suspend and gang instructions,
``status`` drafts the status definition, and ``writer`` emits the YAML text with its comments.
"""
