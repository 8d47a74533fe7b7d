"""Rule variants as frozen specs in a registry, addressed by id (``classic``, ``duet`` …).

A variant id may carry options in brackets, e.g. ``duet[tokens=11,loose_turn_order]`` or
``classic[infinity_gauntlet,invalid_clue=forfeit]``; :attr:`Variant.label` writes that form
back, so every result row can record exactly what was played.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from codebots.errors import CodebotsError
from codebots.missions import LOCATION_BONUSES, MISSIONS, token_setup

INVALID_CLUE_RULES = ("penalty", "accept", "forfeit")
BOARD_SOURCES = ("pool", "competition")


@dataclass(frozen=True)
class Variant:
    """Everything that decides how a game is dealt and judged (docs/engine-rules.md)."""

    id: str
    description: str
    family: str  # "team" | "duet"
    pool: str = "competition"
    invalid_clue: str = "penalty"
    # Team games (classic, single-team, Marvel co-op).
    opponent: str = "team"  # "team" plays, "none" never plays, "virtual" covers a card a turn
    agents: tuple[int, int] = (9, 8)  # (starting team, other team)
    bystanders: int = 7
    random_start: bool = True
    zero_clues: bool = True
    zero_clue_guesses: int = 0  # guess limit after a 0 clue; 0: none (RULES 1), 1: n + 1 (RULES 2)
    unlimited_clues: bool = True
    infinity_gauntlet: bool = False
    experts: bool = False  # Marvel experts: a clue shares no letters' piece with a card
    three_players: bool = False  # Marvel: two rival spymasters share one guesser
    board_source: str = "pool"  # "competition": the 2019 framework's Python-random boards
    # Duet and the mission log.
    tokens: int = 10
    mistakes: int = 10
    mission: str | None = None
    loose_turn_order: bool = False
    expert: bool = False
    fourteen_of_fifteen: bool = False
    sudden_death_forgiveness: int = 0
    two_word_clues: int = 0
    double_clues: int = 0
    touch_two: int = 0
    mark_bystander: int = 0
    extra_mistake_token: bool = False
    extra_time_tokens: bool = False
    flip_time_to_mistake: bool = False
    options: tuple[tuple[str, object], ...] = ()  # what was changed from the registered spec

    @property
    def label(self) -> str:
        """The id plus its changed options: parse it back with :func:`get_variant`."""
        if not self.options:
            return self.id
        parts = []
        for name, value in self.options:
            if value is True:
                parts.append(name)
            elif value is False:
                parts.append(f"{name}=false")
            else:
                parts.append(f"{name}={value}")
        return f"{self.id}[{','.join(parts)}]"

    @property
    def rules(self) -> str:
        """Every rule field as ``name=value`` text (no id, description or option list): two
        specs with the same rules play the same games, whatever they are called."""
        skip = {"id", "description", "options"}
        return ",".join(
            f"{field.name}={getattr(self, field.name)!r}"
            for field in dataclasses.fields(self)
            if field.name not in skip
        )

    @property
    def token_setup(self) -> tuple[int, int]:
        """``(time_side, mistake_side)`` tokens in the bank at the start (Duet)."""
        return token_setup(
            self.tokens,
            self.mistakes,
            expert=self.expert,
            extra_mistake_token=self.extra_mistake_token,
            extra_time_tokens=self.extra_time_tokens,
            flip_time_to_mistake=self.flip_time_to_mistake,
        )

    @property
    def counts(self) -> tuple[int, int, int, int]:
        """Team games: (starting agents, other agents, bystanders, assassins)."""
        return (*self.agents, self.bystanders, 1)

    def with_options(self, **changes: object) -> Variant:
        """A copy with options changed; unknown or ill-typed options are clear errors."""
        allowed = TEAM_OPTIONS if self.family == "team" else DUET_OPTIONS
        if self.mission is not None:
            allowed = allowed - {"tokens"}
        spec = self
        for name, value in changes.items():
            if name not in allowed:
                raise CodebotsError(
                    f"variant '{self.id}' has no option '{name}'; options: "
                    + ", ".join(sorted(allowed))
                )
            value = _coerce(self.id, name, value, getattr(self, name))
            spec = dataclasses.replace(spec, **{name: value})
            if name == "tokens":  # the standard game's tokens are all mistake-side up
                spec = dataclasses.replace(spec, mistakes=value)
        spec._validate()
        registered = VARIANTS[self.id]
        changed = tuple(
            (name, getattr(spec, name))
            for name in sorted(allowed)
            if getattr(spec, name) != getattr(registered, name)
        )
        return dataclasses.replace(spec, options=changed)

    def _validate(self) -> None:
        if self.invalid_clue not in INVALID_CLUE_RULES:
            raise CodebotsError(
                f"invalid_clue must be one of {', '.join(INVALID_CLUE_RULES)}, "
                f"not '{self.invalid_clue}'"
            )
        if self.board_source not in BOARD_SOURCES:
            raise CodebotsError(
                f"board_source must be one of {', '.join(BOARD_SOURCES)}, not '{self.board_source}'"
            )
        if self.family == "duet" and self.mission is None and not 9 <= self.tokens <= 12:
            raise CodebotsError(f"duet tokens must be 9..12 (standard 10), not {self.tokens}")
        if self.three_players and self.opponent != "team":
            raise CodebotsError(
                f"three_players needs two teams (classic); '{self.id}' has "
                f"{'no other team' if self.opponent == 'none' else 'a virtual team'}"
            )
        if self.zero_clue_guesses not in (0, 1):
            raise CodebotsError(
                f"zero_clue_guesses must be 0 (no limit) or 1 (the 2019 framework), "
                f"not {self.zero_clue_guesses}"
            )
        for name in (
            "sudden_death_forgiveness", "two_word_clues", "double_clues", "touch_two",
            "mark_bystander",
        ):  # fmt: skip
            if not 0 <= getattr(self, name) <= 9:
                raise CodebotsError(f"{name} must be 0..9, not {getattr(self, name)}")


TEAM_OPTIONS = frozenset(
    {
        "pool",
        "invalid_clue",
        "zero_clues",
        "zero_clue_guesses",
        "unlimited_clues",
        "infinity_gauntlet",
        "experts",
        "three_players",
        "board_source",
    }
)
DUET_OPTIONS = frozenset(
    {
        "pool",
        "invalid_clue",
        "tokens",
        "loose_turn_order",
        "expert",
        "fourteen_of_fifteen",
        "sudden_death_forgiveness",
        "two_word_clues",
        "double_clues",
        "touch_two",
        "mark_bystander",
        "extra_mistake_token",
        "extra_time_tokens",
        "flip_time_to_mistake",
    }
)


def _coerce(variant_id: str, name: str, text: object, default: object) -> object:
    """Turn an option value (maybe text from a command line) into the field's type."""
    if not isinstance(text, str):
        if isinstance(default, bool) and not isinstance(text, bool):
            raise CodebotsError(f"option '{name}' of '{variant_id}' takes true/false, not {text!r}")
        return text
    if isinstance(default, bool):
        lowered = text.lower()
        if lowered in ("", "true", "1", "yes", "on"):
            return True
        if lowered in ("false", "0", "no", "off"):
            return False
        raise CodebotsError(f"option '{name}' of '{variant_id}' takes true/false, not '{text}'")
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise CodebotsError(
                f"option '{name}' of '{variant_id}' takes an integer, not '{text}'"
            ) from None
    return text


def _missions() -> list[Variant]:
    specs = []
    for mission in MISSIONS:
        bonus = LOCATION_BONUSES[mission.location]
        extra = {bonus[0]: bonus[1]} if bonus else {}
        specs.append(
            Variant(
                id=mission.variant_id,
                description=(
                    f"Duet mission log: {mission.name} ({mission.location.title()}), "
                    f"{mission.tokens}/{mission.mistakes} tokens"
                ),
                family="duet",
                tokens=mission.tokens,
                mistakes=mission.mistakes,
                mission=mission.slug,
                **extra,
            )
        )
    return specs


# The single-team benchmark (RULES 2). Its guess limit is n + 1 for every number, so a 0 clue
# gets one guess, as the 2019 framework's game.py plays it (`while guess_num <= num`);
# `zero_clues=false` is the stricter reading, numbers 1..9 only. No unlimited clues.
_SINGLE_TEAM: dict = dict(
    family="team",
    opponent="none",
    random_start=False,
    zero_clue_guesses=1,
    unlimited_clues=False,
    board_source="competition",
)

_REGISTERED = [
    Variant(
        id="classic",
        description="Two teams, 9/8 agents, 7 bystanders, 1 assassin; random starting team",
        family="team",
    ),
    Variant(
        id="marvel-coop",
        description="Two-player co-op vs a virtual team that covers one of its agents a turn; "
        "scored 1..8 with a rank",
        family="team",
        opponent="virtual",
        random_start=False,
    ),
    Variant(
        id="single-team-2019",
        description="Single-team benchmark of the 2019 AI competition: 8 red/7 blue/9/1, "
        "score = clues on a win, 25 on a loss",
        agents=(8, 7),
        bystanders=9,
        **_SINGLE_TEAM,
    ),
    Variant(
        id="single-team-2025",
        description="Single-team benchmark of the 2025 LLM benchmark: 9 red/8 blue/7/1",
        **_SINGLE_TEAM,
    ),
    Variant(
        id="duet",
        description="Duet-style co-op with a two-sided key: 15 greens, time bank 10 "
        "(tokens=9..12), sudden death",
        family="duet",
    ),
    *_missions(),
]
VARIANTS: dict[str, Variant] = {spec.id: spec for spec in _REGISTERED}

_LABEL = re.compile(r"^\s*([a-z0-9/-]+)\s*(?:\[(.*)\])?\s*$")


def get_variant(label: str | Variant, **options: object) -> Variant:
    """Look a variant up by id or label (``duet[tokens=11]``), optionally changing options."""
    if isinstance(label, Variant):
        spec = label
    else:
        text = str(label)
        if text.count("[") != text.count("]") or text.count("[") > 1:
            raise CodebotsError(
                f"variant '{text}': options go in one pair of brackets after the id, "
                "e.g. duet[tokens=11,expert]"
            )
        match = _LABEL.match(text)
        if match is None or match.group(1) not in VARIANTS:
            raise CodebotsError(f"unknown variant '{text}'; known variants: {', '.join(VARIANTS)}")
        spec = VARIANTS[match.group(1)]
        inline: dict[str, object] = {}
        for item in filter(None, (part.strip() for part in (match.group(2) or "").split(","))):
            name, _, value = item.partition("=")
            if name.strip() in inline:
                raise CodebotsError(
                    f"variant '{text}' sets the option '{name.strip()}' twice; set it once"
                )
            inline[name.strip()] = value.strip()
        options = {**inline, **options}
    return spec.with_options(**options) if options else spec


def split_labels(text: str) -> tuple[str, ...]:
    """Comma-separated labels (variants, agents, pairs), commas inside an option list kept:
    ``"single-team-2019,duet[tokens=11,expert]"`` is two labels, and so is
    ``"glove:glove,random[number=2]:noisy-oracle[first=0.9,later=0.7]"``."""
    return tuple(part.strip() for part in re.split(r",(?![^\[]*\])", text) if part.strip())


def list_variants() -> list[Variant]:
    return list(VARIANTS.values())
