"""The registry of agents: names (with options in brackets) -> agent factories."""

from __future__ import annotations

import re
from collections.abc import Callable

from codebots.agents.base import Guesser, Spymaster
from codebots.agents.rivals import Rivals, split_rivals
from codebots.errors import CodebotsError

SPYMASTERS: dict[str, Callable[..., Spymaster]] = {}
GUESSERS: dict[str, Callable[..., Guesser]] = {}


SUMMARIES: dict[tuple[str, str], str] = {}  # (role, name) -> one line for `codebots agents`


def register(role: str, name: str, summary: str | None = None):
    """Class decorator adding an agent factory to the registry of ``role``; ``summary``
    (default: the first line of the factory's docstring) is what ``codebots agents`` shows."""
    registry = SPYMASTERS if role == "spymaster" else GUESSERS

    def add(factory):
        registry[name] = factory
        SUMMARIES[role, name] = summary or (factory.__doc__ or "").strip().split("\n")[0]
        return factory

    return add


_NAME = re.compile(r"^\s*([a-z0-9-]+)\s*(?:\[([^\[\]]*)\])?\s*$")


def split_agent_name(name: str) -> tuple[str, dict[str, str]]:
    """``crossplay[without=minilm]`` -> ``("crossplay", {"without": "minilm"})``."""
    match = _NAME.match(name)
    if match is None:
        raise CodebotsError(
            f"agent name '{name}' must be a registered name, with options in brackets: "
            "crossplay[without=minilm]"
        )
    options: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in (match.group(2) or "").split(","))):
        key, _, value = item.partition("=")
        if key.strip() in options:
            raise CodebotsError(f"agent '{name}' sets '{key.strip()}' twice; set it once")
        options[key.strip()] = value.strip()
    return match.group(1), options


def option_value(agent: str, name: str, value, kind, low, high):
    """An agent option given in its name (a string) or in code, checked: a one-line error."""
    try:
        number = kind(value)
    except (TypeError, ValueError):
        number = None
    if number is None or not low <= number <= high:
        what = "a whole number" if kind is int else "a number"
        raise CodebotsError(f"{agent}: {name}={value} must be {what} from {low} to {high}")
    return number


def option_flag(agent: str, name: str, value) -> bool:
    """A yes/no agent option given in its name (``true``/``false``) or in code, checked."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "on", "1"):
        return True
    if text in ("false", "no", "off", "0"):
        return False
    raise CodebotsError(f"{agent}: {name}={value} must be true or false")


def check_agent(role: str, name: str) -> None:
    """A one-line error unless ``name`` is a registered ``role`` (options checked too)."""
    make_agent(role, name, build=False)


def make_agent(role: str, name: str, build: bool = True, **options) -> Spymaster | Guesser:
    """Build a registered agent; an unknown name is a one-line error listing the known ones.

    A name may carry options in brackets (``crossplay[without=minilm]``) for the agents
    that take them; the agent is then named so in every result."""
    if role not in ("spymaster", "guesser"):
        raise CodebotsError(f"role must be 'spymaster' or 'guesser', not '{role}'")
    if role == "spymaster" and "|" in name:  # two rivals: red's and blue's (Marvel, 3 players)
        red, blue = (make_agent(role, part, build, **options) for part in split_rivals(name))
        return Rivals(red, blue) if build else None
    registry = SPYMASTERS if role == "spymaster" else GUESSERS
    base, inline = split_agent_name(name)
    if base not in registry:
        raise CodebotsError(f"unknown {role} '{base}'; known: {', '.join(sorted(registry))}")
    factory = registry[base]
    accepted = getattr(factory, "name_options", ())
    strange = [key for key in inline if key not in accepted]
    if strange:
        takes = f"it takes: {', '.join(accepted)}" if accepted else "it takes none"
        raise CodebotsError(f"{role} '{base}' has no option '{strange[0]}'; {takes}")
    check = getattr(factory, "check_options", None)
    if check is not None:
        check(**inline)
    if not build:
        return None
    agent = factory(**inline, **options)
    if inline:
        agent.name = name.strip()
    return agent
