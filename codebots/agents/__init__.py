"""Agents: protocols, views and the registry; importing this registers the baselines."""

from codebots.agents import baselines, registered  # noqa: F401 — registers the agents
from codebots.agents.base import Clues, Guesser, GuesserView, Spymaster, SpymasterView
from codebots.agents.registry import GUESSERS, SPYMASTERS, make_agent

__all__ = [
    "GUESSERS",
    "SPYMASTERS",
    "Clues",
    "Guesser",
    "GuesserView",
    "Spymaster",
    "SpymasterView",
    "make_agent",
]
