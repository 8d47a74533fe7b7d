"""The noisy oracle (a partner of a given agreement) and random clues of a fixed number: the
agents behind experiments/agreement_bounds.py."""

from __future__ import annotations

import numpy as np
import pytest

from codebots.agents import make_agent
from codebots.arena import play
from codebots.engine import make
from codebots.engine.constants import RED
from codebots.errors import CodebotsError
from codebots.variants import split_labels
from codebots.vocab import load_pool


def pair(spymaster: str, guesser: str):
    return make_agent("spymaster", spymaster), make_agent("guesser", guesser)


def test_a_partner_right_every_time_finds_two_agents_a_clue():
    # 8 red agents, two a clue: four clues, whatever the words.
    records = play(
        "single-team-2019", *pair("random[number=2]", "noisy-oracle[first=1]"), range(200)
    )
    assert records["won"].all() and (records["clues"] == 4).all()
    three = play("single-team-2019", *pair("random[number=3]", "noisy-oracle[first=1]"), range(50))
    assert (three["clues"] == 3).all()  # 3 + 3 + the last 2


def test_a_partner_never_right_first_finds_nothing():
    records = play(
        "single-team-2019", *pair("random[number=2]", "noisy-oracle[first=0,later=1]"), range(200)
    )
    assert not records["won"].any()  # every clue's first guess misses, and a miss ends the turn


def test_first_guesses_land_on_an_agent_as_often_as_asked():
    """From the turn log and the keys: the share of a clue's first guesses on an agent, and
    the misses spread over the other cards (no card kind preferred)."""
    seeds = np.arange(400)
    log: list[dict] = []
    play(
        "single-team-2019",
        *pair("random[number=1]", "noisy-oracle[first=0.7,later=0]"),
        seeds,
        turn_log=log,
    )
    state = make("single-team-2019").reset(seeds)
    words = load_pool("competition").words
    identity = {
        (int(seed), words[card]): int(key)
        for seed, cards, keys in zip(seeds, state.cards, state.key)
        for card, key in zip(cards, keys)
    }
    firsts = np.array([identity[turn["seed"], turn["guesses"][0]] for turn in log])
    assert len(firsts) > 2000
    assert abs((firsts == RED).mean() - 0.7) < 0.03
    misses = firsts[firsts != RED]
    # 7 blue, 9 bystanders, 1 assassin at the start: the misses in about those shares.
    shares = np.bincount(misses, minlength=4)[1:] / len(misses)
    assert np.allclose(shares, [7 / 17, 9 / 17, 1 / 17], atol=0.05)


def test_agreement_bounds_rise_with_agreement_in_every_variant():
    for variant in ("duet", "marvel-coop", "single-team-2019"):
        rates = [
            play(variant, *pair("random[number=2]", f"noisy-oracle[first={p}]"), range(300))[
                "won"
            ].mean()
            for p in (0.6, 0.8, 1.0)
        ]
        assert rates[0] < rates[1] < rates[2] == 1.0, (variant, rates)


@pytest.mark.parametrize(
    "name, message",
    [
        ("random[number=0]", "random: number=0 must be a whole number from 1 to 9"),
        ("random[number=two]", "random: number=two must be a whole number from 1 to 9"),
        ("noisy-oracle[first=1.5]", "noisy-oracle: first=1.5 must be a number from 0.0 to 1.0"),
        ("noisy-oracle[later=x]", "noisy-oracle: later=x must be a number from 0.0 to 1.0"),
        ("noisy-oracle[seen=1]", "has no option 'seen'; it takes: first, later"),
    ],
)
def test_bad_options_are_one_line_errors(name, message):
    role = "spymaster" if name.startswith("random") else "guesser"
    with pytest.raises(CodebotsError, match=message.replace("[", r"\[").replace(".", r"\.")):
        make_agent(role, name)


def test_pairs_with_several_options_split_at_the_commas_between_them():
    text = "glove:glove,random[number=2]:noisy-oracle[first=0.9,later=0.7]"
    assert split_labels(text) == (
        "glove:glove",
        "random[number=2]:noisy-oracle[first=0.9,later=0.7]",
    )
