"""The one exception type the CLI turns into a one-line error and exit code 1."""

from __future__ import annotations


class CodebotsError(ValueError):
    """Bad input from a user or a config: the message names the problem and the fix."""
