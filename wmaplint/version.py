"""The version of wmaplint, for the modules of every layer (the package root, which re-exports it, stands
above them all)."""

__version__ = "0.1.0"
