"""The mission log of the wizarding Duet edition (RULES §3.1): catalogue, bonuses, token setup.

Every mission is also a registered variant (``mission/<slug>``, see :mod:`codebots.variants`).
The campaign that plays missions in unlock order lives with the evaluation tools; this module
holds the data and the arithmetic they share.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_TOKENS = 12  # the box holds 12 time-turner tokens


@dataclass(frozen=True)
class Mission:
    """One mission: ``tokens`` in the bank, ``mistakes`` of them mistake-side up."""

    slug: str
    name: str
    location: str  # "london" | "hogwarts" | "hogsmeade" | "ministry"
    tokens: int
    mistakes: int
    box: str | None  # None for a location's entry mission
    reward: str | None  # reward bonus earned by finishing this mission's box

    @property
    def variant_id(self) -> str:
        return f"mission/{self.slug}"


# Reward bonuses earned by finishing a box; each is a per-game option of a Duet variant.
REWARDS = {
    "fourteen_of_fifteen": "a mission counts as won once 14 of the 15 greens are found",
    "extra_mistake_token": "add one mistake-side token to a mission (12 max)",
    "sudden_death_forgiveness": "in sudden death, one bystander guess is ignored",
    "flip_time_to_mistake": "turn two time-side tokens mistake-side up",
    "double_clues": "one turn: give two clues",
    "extra_time_tokens": "add two time-side tokens to a mission (12 max)",
}

# Location bonuses: option name and uses per mission played in that location.
LOCATION_BONUSES = {
    "london": ("two_word_clues", 3),
    "hogwarts": ("touch_two", 2),
    "hogsmeade": ("mark_bystander", 1),
    "ministry": None,
}

_BOXES = (
    # (location, box, reward, ((slug, name, tokens, mistakes), ...)) — top-down play order
    ("london", None, None, (("london", "London", 10, 10),)),
    (
        "london",
        "london-1",
        "fourteen_of_fifteen",
        (
            ("privet-drive", "#4 Privet Drive", 10, 5),
            ("the-burrow", "The Burrow", 9, 5),
            ("grimmauld-place", "12 Grimmauld Place", 8, 5),
        ),
    ),
    (
        "london",
        "london-2",
        "extra_mistake_token",
        (
            ("diagon-alley", "Diagon Alley", 11, 3),
            ("gringotts", "Gringotts", 10, 3),
            ("ollivanders", "Ollivanders", 9, 3),
        ),
    ),
    (
        "london",
        "london-3",
        "sudden_death_forgiveness",
        (
            ("train-station", "Train Station", 12, 0),
            ("platform-nine-and-three-quarters", "Platform 9¾", 11, 0),
            ("hogwarts-express", "Hogwarts Express", 10, 0),
        ),
    ),
    ("hogwarts", None, None, (("hogwarts", "Hogwarts", 9, 9),)),
    (
        "hogwarts",
        "hogwarts-1",
        "flip_time_to_mistake",
        (
            ("quidditch-pitch", "Quidditch Pitch", 10, 4),
            ("hagrids-hut", "Hagrid's Hut", 9, 4),
            ("forbidden-forest", "Forbidden Forest", 8, 4),
        ),
    ),
    (
        "hogwarts",
        "hogwarts-2",
        "double_clues",
        (
            ("great-hall", "Great Hall", 11, 2),
            ("room-of-requirement", "Room of Requirement", 10, 2),
            ("gryffindor-common-room", "Gryffindor Common Room", 9, 2),
        ),
    ),
    ("hogsmeade", None, None, (("hogsmeade", "Hogsmeade", 8, 8),)),
    (
        "hogsmeade",
        "hogsmeade-1",
        "extra_time_tokens",
        (
            ("three-broomsticks", "Three Broomsticks", 11, 1),
            ("honeydukes", "Honeydukes", 10, 1),
            ("shrieking-shack", "Shrieking Shack", 9, 1),
        ),
    ),
    (
        "ministry",
        "ministry",
        None,
        (
            ("department-of-mysteries", "Department of Mysteries", 9, 0),
            ("hall-of-prophecy", "Hall of Prophecy", 8, 2),
            ("battle-of-the-atrium", "Battle of the Atrium", 7, 4),
        ),
    ),
)

MISSIONS: tuple[Mission, ...] = tuple(
    Mission(slug, name, location, tokens, mistakes, box, reward)
    for location, box, reward, rows in _BOXES
    for slug, name, tokens, mistakes in rows
)
MISSIONS_BY_SLUG = {mission.slug: mission for mission in MISSIONS}


def token_setup(
    tokens: int,
    mistakes: int,
    *,
    expert: bool = False,
    extra_mistake_token: bool = False,
    extra_time_tokens: bool = False,
    flip_time_to_mistake: bool = False,
) -> tuple[int, int]:
    """Return ``(time_side, mistake_side)`` tokens in the bank at the start of a game.

    Applied in this order: the expert option removes one token (time-side when there is one),
    then the rewards add tokens (never above 12 in the bank) and flip up to two time-side
    tokens mistake-side up.
    """
    total, mistake_side = tokens, mistakes
    if expert:
        total -= 1
        mistake_side = min(mistake_side, total)
    if extra_mistake_token and total < MAX_TOKENS:
        total += 1
        mistake_side += 1
    if extra_time_tokens:
        total = min(MAX_TOKENS, total + 2)
    if flip_time_to_mistake:
        mistake_side += min(2, total - mistake_side)
    return total - mistake_side, mistake_side
