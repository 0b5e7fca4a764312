"""The one error of the controller model."""


class ModelError(Exception):
    """A model file that cannot be read or has the wrong shape: one line naming the file and the place."""
