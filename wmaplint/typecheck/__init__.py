"""A definition's expressions typed against the schemas they run on: what each field needs its path to reach
(``expectations``) and every path of a definition checked against its kind's schemas (``paths``). It reads
the format's table of fields, the jq type inference and the schema types, and sits above all three."""
