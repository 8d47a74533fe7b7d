"""Duet bonuses in the agents' hands (codebots.bonus_moves): the AI spends them by its
documented policy, the records count every use, and a game with a bonus differs from the
same seed without it."""

from __future__ import annotations

import numpy as np
import pytest

from codebots.agents import make_agent
from codebots.arena import Seat, play

SEEDS = np.arange(1000, 1060)


@pytest.fixture(scope="module")
def seats():
    return Seat.of("glove"), Seat.of("minilm")


def test_the_ai_touches_two_cards_with_the_hogwarts_bonus(seats):
    with_bonus = play("mission/hogwarts", *seats, SEEDS)
    without = play("mission/hogwarts[touch_two=0]", *seats, SEEDS)
    used = with_bonus["touch_two_used"]
    assert used.between(0, 2).all() and used.sum() > 0
    assert (without["touch_two_used"] == 0).all()
    differ = (with_bonus["turns"] != without["turns"]) | (with_bonus["won"] != without["won"])
    assert differ.any()  # touching two changes games


def test_the_ai_marks_a_bystander_with_the_hogsmeade_bonus(seats):
    log: list = []
    rows = play("mission/hogsmeade", seats[0], seats[0], np.arange(1000, 1300), turn_log=log)
    used = rows["mark_bystander_used"]
    assert used.between(0, 1).all() and used.sum() > 0  # rare: a mark costs a token
    game = int(rows.loc[used > 0, "seed"].iloc[0])
    plain = play("mission/hogsmeade[mark_bystander=0]", seats[0], seats[0], [game])
    again = play("mission/hogsmeade", seats[0], seats[0], [game])
    assert int(again["mark_bystander_used"].iloc[0]) == 1  # seeded: the same game again
    assert int(plain["tokens_left"].iloc[0]) != int(again["tokens_left"].iloc[0]) or (
        int(plain["turns"].iloc[0]) != int(again["turns"].iloc[0])
    )


def test_agents_without_the_methods_never_spend_a_bonus():
    random_seats = (Seat.of("random"), Seat.of("random"))
    rows = play("mission/hogwarts", *random_seats, SEEDS[:20])
    assert (rows["touch_two_used"] == 0).all() and (rows["mark_bystander_used"] == 0).all()


def test_the_second_card_is_the_next_best_and_only_when_close():
    from codebots.agents.views import guesser_view
    from codebots.engine import GUESS, make
    from codebots.variants import get_variant
    from codebots.vocab import load_pool

    spec = get_variant("mission/hogwarts")
    words = load_pool(spec.pool).words
    from codebots.agents.guesser import TOUCH_TWO_GAP_Z

    size = 40
    state = make(spec).reset(np.arange(size))
    state = state.replace(phase=np.full(size, GUESS, np.int8))  # as after a clue "wand 2"
    guesser = make_agent("guesser", "glove")
    guesser.begin(size)
    active = np.ones(size, bool)
    clue = ["wand"] * size
    view = guesser_view(spec, words, state, active, clue, np.full(size, 2, np.int16), False, active)
    cards = guesser.guesses(view, np.random.default_rng(0))
    second = guesser.second_card(view, cards)
    scores = guesser._scores
    for game in range(size):
        others = np.delete(scores[game], cards[game])
        close = scores[game, cards[game]] - others.max() <= TOUCH_TWO_GAP_Z
        assert (second[game] >= 0) == close, game  # a second card exactly when close
        if close:
            assert second[game] != cards[game] and view.legal[game, second[game]]
            assert scores[game, second[game]] == others.max()
    assert 0 < (second >= 0).sum() < size  # both cases occur on these boards


# --- the person's bonuses at the terminal ---------------------------------------------------


def session_for(tmp_path, mission: str, seed: int = 3):
    from codebots.play import Session

    session = Session(mission, seed, "guesser", "glove", "glove", tmp_path / "g.jsonl")
    session.start()
    return session


def own(session, identity: int) -> list[str]:
    state = session.state
    cards = np.flatnonzero((state.key[0, 0] == identity) & ~state.covered[0])
    return [session.card_word(int(c)).lower() for c in cards]


def test_a_two_word_clue_in_london(tmp_path):
    from codebots.play import InputProblem, Session
    from codebots.validity import check_clue

    session = session_for(tmp_path, "mission/london")
    assert "two-word clues 3" in session.bonuses_held()
    pair = next(
        p for p in ("pet shop", "deep sea", "fire truck", "ice cream")
        if all(check_clue(w, session.visible_words()) for w in p.split())
    )  # fmt: skip
    event = session.human_clue(f"{pair.upper()} 2")
    assert event["two_word"] and event["word"] == pair
    assert int(session.state.two_word_left[0]) == 2
    plain = session_for(tmp_path / "p", "duet")
    with pytest.raises(InputProblem, match="must be one word"):
        plain.human_clue(f"{pair} 2")
    assert Session.load(tmp_path / "g.jsonl").events == session.events


def test_marking_a_bystander_in_hogsmeade(tmp_path):
    from codebots.engine.constants import BYSTANDER, GREEN
    from codebots.play import InputProblem, Session

    session = session_for(tmp_path, "mission/hogsmeade")
    with pytest.raises(InputProblem, match="not one of your visible bystanders"):
        session.human_clue(f"mark {own(session, GREEN)[0]}")
    bystander = own(session, BYSTANDER)[0]
    note = session.human_clue(f"mark {bystander}")
    assert note["type"] == "note" and len(session.events) == 0  # nothing played yet
    bank = int(session.state.bank[0])
    event = session.human_clue("ocean 1")
    assert event["mark_word"].lower() == bystander
    assert int(session.state.bank[0]) == bank - 1 and int(session.state.mark_left[0]) == 0
    assert session.state.marked[0, 0, event["mark"]]
    assert Session.load(tmp_path / "g.jsonl").state.marked[0, 0, event["mark"]]


def test_touching_two_cards_in_hogwarts(tmp_path):
    from codebots.play import Session
    from codebots.render import describe_move as describe

    session = session_for(tmp_path, "mission/hogwarts")
    session.human_clue("pass")  # the AI gives the first clue, the person guesses it
    session.ai_move()
    state = session.state
    key = state.key[0, 1]  # the AI's side judges
    green = session.card_word(int(np.flatnonzero(key == 0)[0])).lower()
    bystander = session.card_word(int(np.flatnonzero(key == 2)[0])).lower()
    event = session.human_guess(f"{bystander} + {green}")
    assert event["result"] == "green agent" and event["counted"] == event["second"]
    assert f"(counted: {green.upper()})" in describe(event)
    assert int(session.state.touch_two_left[0]) == 1
    assert Session.load(tmp_path / "g.jsonl").events == session.events


def test_the_ai_partner_uses_the_hogwarts_bonus_at_the_terminal(tmp_path):
    from scripted_play import choose, play_out

    from codebots.play import Session

    for seed in range(8):
        session = Session(
            "mission/hogwarts", seed, "guesser", "glove", "glove", tmp_path / f"{seed}"
        )
        session.start()
        play_out(session, lambda s, move: choose(s, move, win=True))
        pairs = [e for e in session.events if e["by"] == "ai" and "second" in e]
        if pairs:
            assert Session.load(tmp_path / f"{seed}").events == session.events
            assert all(e["counted"] in (e["card"], e["second"]) for e in pairs)
            return
    raise AssertionError("the AI never touched two cards in 8 Hogwarts games")


def test_two_clues_in_one_turn(tmp_path):
    from codebots.play import InputProblem, Session
    from codebots.render import describe_move as describe

    session = session_for(tmp_path, "duet[double_clues=1]")
    assert "two clues in a turn 1" in session.bonuses_held()
    with pytest.raises(InputProblem, match="'word number, word number'"):
        session.human_clue("ocean 2, music")
    event = session.human_clue("Ocean 2, music 1")
    assert event["double"] and event["clues"] == [["ocean", 2], ["music", 1]]
    assert event["number"] == 3 and int(session.state.double_left[0]) == 0
    assert int(session.state.clues[0]) == 2  # two clues given in one turn
    assert describe(event) == "You clues: OCEAN 2 + MUSIC 1"
    guess = session.ai_move()  # the AI guesser reads both
    assert guess["type"] == "guess"
    assert Session.load(tmp_path / "g.jsonl").events == session.events
    plain = session_for(tmp_path / "p", "duet")
    with pytest.raises(InputProblem, match="no 'two clues in one turn' bonus"):
        plain.human_clue("ocean 2, music 1")


def test_the_ai_gives_two_word_clues_in_london(seats):
    log: list = []
    with_bonus = play("mission/london", *seats, SEEDS, turn_log=log)
    without = play("mission/london[two_word_clues=0]", *seats, SEEDS)
    assert with_bonus["two_word_clues_used"].between(0, 3).all()
    assert with_bonus["two_word_clues_used"].sum() > 0
    two_words = [turn for turn in log if len(turn["clue"].split()) == 2]
    assert two_words and all(turn["number"] == 2 and turn["valid"] for turn in two_words)
    assert (with_bonus["won"] != without["won"]).any() or (
        with_bonus["turns"] != without["turns"]
    ).any()


def test_the_ai_gives_two_clues_in_one_turn_when_time_runs_short(seats):
    log: list = []
    rows = play("mission/gringotts[double_clues=1]", *seats, SEEDS, turn_log=log)
    used = rows["double_clues_used"]
    assert used.between(0, 1).all() and used.sum() > 0
    doubles = [turn for turn in log if len(turn["clue"].split()) == 2]
    assert doubles and all(turn["valid"] for turn in doubles)
    plain = play("mission/gringotts", *seats, SEEDS)
    assert (plain["double_clues_used"] == 0).all()


def test_the_ai_partner_gives_two_word_clues_at_the_terminal():
    # A perfect person finishes London before the AI needs a one-card clue, so the AI's
    # clue is made a one-card one here; the terminal then applies the arena's policy.
    from codebots.agents.base import Clues
    from codebots.agents.views import spymaster_view
    from codebots.play import Session

    for seed in range(20):
        session = Session("mission/london", seed, "guesser", "glove", "glove")
        session.human_clue("pass")  # the AI gives the first clue
        state = session.state.replace(giver=np.ones(1, np.int8))
        view = spymaster_view(session.spec, session.words, state, np.ones(1, bool))
        best = session.spymaster.clues(view, np.random.default_rng(0))
        one = Clues(best.words, np.ones(1, np.int16), ((best.targets[0][0],),))
        event = {"type": "clue", "by": "ai", "word": best.words[0], "number": 1}
        event = session.ai_clue_bonuses(event, view, one)
        if event.get("two_word"):
            assert event["number"] == 2 and event["word"].startswith(best.words[0] + " ")
            session._record({**event, "valid": True, "giver": 1})
            assert int(session.state.two_word_left[0]) == 2  # the engine spent one
            return
    raise AssertionError("no two-word clue on 20 London boards")


def test_under_the_looser_order_a_player_with_a_bigger_clue_takes_the_turn(seats):
    logs: dict = {}
    for label in ("duet", "duet[loose_turn_order]"):
        logs[label] = []
        play(label, *seats, SEEDS[:30], turn_log=logs[label])
    strict, loose = ([(t["seed"], t["giver_seat"]) for t in logs[k]] for k in logs)
    assert strict != loose  # the agents used the looser order somewhere

    def openings(log):  # each game's givers up to the first clue of a repeated giver
        games: dict = {}
        for seed, giver in log:
            games.setdefault(seed, []).append(giver)
        return {seed: g[: next((i for i in range(1, len(g)) if g[i] == g[i - 1]), len(g))]
                for seed, g in games.items()}  # fmt: skip

    # Strictly the givers alternate until a hand-over; loosely a player gives twice sooner.
    first, second = openings(strict), openings(loose)
    assert any(len(second[seed]) < len(first[seed]) for seed in first)
