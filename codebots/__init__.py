"""codebots: agents, a batched simulator and evaluation tools for Codenames."""

__version__ = "0.1.0"
