"""The type of a plain value as YAML or JSON gives it: a manifest, a schema dict, a settings file.

Keys are strings (what the readers keep; a YAML key of another type is a finding, not a value). Only the type
checker reads this module: the readers return the standard library's containers themselves.
"""

from __future__ import annotations

Json = None | bool | int | float | str | list["Json"] | dict[str, "Json"]
