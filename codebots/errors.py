"""The one exception type the CLI turns into a one-line error and exit code 1, and the
one-line notes that tell a person watching what is going on (a rebuild, a skipped file)."""

from __future__ import annotations

import sys


class CodebotsError(ValueError):
    """Bad input from a user or a config: the message names the problem and the fix."""


def note(message: str) -> None:
    """One line on stderr: ``codebots: message``."""
    print(f"codebots: {message}", file=sys.stderr, flush=True)
