"""The controller model a project sees: the shipped model with the files its configuration names
(``controllers:``, ``pod-labels:``) merged over it and the releases it pins (``releases:``). Every consumer
reads the model through here: the rules (``DefinitionContext.controller_model``), ``tree`` and ``test``
(``wmaplint.resolve``), ``new`` and the editor.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from wmaplint import memo
from wmaplint.controllers.errors import ModelError
from wmaplint.controllers.load import load_model

if TYPE_CHECKING:
    from wmaplint.config import Config
    from wmaplint.controllers.model import Model


def _stamp(path: str) -> tuple[int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (-1, -1)  # read (and refused) by load_model, which says why
    return st.st_mtime_ns, st.st_size


# A check reads the same project's model for each of its definitions: merged once while its files stay put.
@memo.lru_cache(maxsize=16)
def _merged(files: tuple[tuple[str, tuple[int, int]], ...], releases: tuple[tuple[str, str], ...]) -> Model:
    return load_model([path for path, _ in files], releases=releases)


def project_model(config: Config) -> Model:
    """The project's model; raises ModelError for a file of the project that cannot be read or has the
    wrong shape."""
    files = tuple((path, _stamp(path)) for path in config.controller_files)
    return _merged(files, config.releases)


def usable_model(config: Config) -> Model:
    """The project's model, or the shipped one (with the project's releases) where a file of the project
    cannot be used: `new` reports such a file; the other readers go on with what is shipped."""
    try:
        return project_model(config)
    except ModelError:
        return load_model(releases=config.releases)


def model_near(path: str | None = None) -> Model:
    """The model of the project configured at ``path``'s directory (the working directory when None), as
    `check` finds a file's configuration; the shipped model where the configuration cannot be read."""
    from wmaplint.config import ConfigError, find_config

    directory = os.getcwd() if path is None else os.path.dirname(os.path.abspath(path))
    try:
        config = find_config(directory)
    except (ConfigError, OSError):
        return load_model()
    return usable_model(config)
