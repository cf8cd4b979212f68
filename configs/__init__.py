"""The shipped themes (themes/*.toml) and experiments (experiments/*.toml).

This folder is where they are edited; installed, it is the package `simcore.configs`
(pyproject.toml maps it), read with importlib.resources, so a wheel carries the files.
"""
