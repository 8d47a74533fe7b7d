"""The Marvel experts option (RULES section 1): a clue may not contain the name of a card or
any part of it, nor be contained in one: the strict rule of section 4, for AI clues and for a
person's, in every team variant (``marvel-coop[experts]``, ``classic[experts]``)."""

from __future__ import annotations

import numpy as np
import pytest

from codebots.agents import make_agent
from codebots.arena import play
from codebots.errors import CodebotsError
from codebots.keys import deal
from codebots.play import InputProblem, Session
from codebots.validity import CheckOptions, ClueChecker, _substring, check_clue
from codebots.variants import get_variant
from codebots.vocab import clue_vocabulary, load_pool

STRICT = CheckOptions(strict=True)
HEROES = "marvel-coop[pool=superheroes]"


def first_clues(label: str, spymaster: str, games: int) -> list[tuple[str, list[str]]]:
    """Each game's first clue with the whole board (every card is visible then)."""
    spec = get_variant(label)
    log: list[dict] = []
    play(spec, make_agent("spymaster", spymaster), make_agent("guesser", "glove"),
         np.arange(games), turn_log=log)  # fmt: skip
    words = load_pool(spec.pool).words
    _, cards, _, _ = deal(spec, np.arange(games))
    return [(e["clue"], [words[c] for c in cards[e["seed"]]]) for e in log if e["clue_no"] == 1]


def test_the_option_parses_and_belongs_to_team_games():
    assert get_variant("marvel-coop[experts]").experts
    assert get_variant("marvel-coop[experts]").label == "marvel-coop[experts]"
    assert get_variant("classic", experts=True).label == "classic[experts]"
    with pytest.raises(CodebotsError, match="variant 'duet' has no option 'experts'"):
        get_variant("duet[experts]")


@pytest.mark.parametrize("spymaster", ["glove", "random", "crossplay"])
def test_ai_clues_keep_the_experts_rule(spymaster):
    games = 60 if spymaster == "crossplay" else 200
    clues = first_clues(f"{HEROES[:-1]},experts]", spymaster, games)
    broken = [(w, b) for w, b in clues if not check_clue(w, b, STRICT)]
    assert len(clues) == games and not broken, broken[:3]


def test_without_the_option_the_ai_breaks_it_sometimes():
    # The option changes the game: plain first clues on the superheroes pool break it.
    clues = first_clues(HEROES, "glove", 300)
    assert sum(not check_clue(w, b, STRICT) for w, b in clues) >= 3


def test_a_persons_clue_is_judged_by_the_experts_rule():
    session = Session("marvel-coop[experts]", 3, "spymaster", "glove", "glove")
    visible = session.visible_words()
    plain = Session("marvel-coop", 3, "spymaster", "glove", "glove")
    # A word that only the strict rule refuses on this board.
    checker = ClueChecker(tuple(visible), STRICT)
    word = next(
        w
        for w in clue_vocabulary(20_000)
        if check_clue(w, visible) and not check_clue(w, visible, STRICT)
    )
    assert len(checker.forbidders(word))
    with pytest.raises(InputProblem, match=r"\(strict rule\)"):
        session.human_clue(f"{word} 1")
    assert plain.human_clue(f"{word} 1")["valid"]


def test_the_batched_strict_rule_is_the_single_verdict():
    pool = load_pool("superheroes").words
    checker = ClueChecker(pool, STRICT)
    rng = np.random.default_rng(0)
    for word in rng.choice(clue_vocabulary(50_000), 500):
        slow = {r for r, card in enumerate(pool) if _substring(word, word, card) is not None}
        assert checker._substring_rows(word) == slow, word
