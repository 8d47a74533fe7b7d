"""Cross-play agents: built to play with a partner who shares no mind with them.

A person is a stranger to every model, and so is an agent of another mind. The cross-play
agents therefore never rely on one model's quirks: they think with a *committee* of every
panel mind (:mod:`codebots.minds`) except the ones left out with ``without=`` (against a
partner thinking with mind M, ``crossplay[without=M]``: built exactly as usual from the
others, knowing nothing else of the partner).

- The spymaster scores every clue under each mind of the committee and keeps the worst
  margin: a clue must single out its targets for every mind. Where a ``0`` clue costs
  nothing but a clue (single-team games) it also aims only at cards WordNet relates to the
  clue (when WordNet is in the committee), keeps the assassin well down every mind's list
  (at least eight other non-targets nearer the clue: a partner's misses land near it) and
  opens with four warnings at it; in the time-limited games (Duet, Marvel co-op, classic)
  the worst margin alone, since a careful clue costs turns there; in Duet (not the
  missions) from each card's 400 nearest clue words instead of 100. ``min_zipf=Z`` keeps its
  clue words at least Zipf Z common (plainer words for a person; off by default).
- The guesser ranks cards by the mean over its minds of each mind's own z-scores for the
  clue (``minds_apart``), each mind weighted by how far its best card stands out (in
  single-team games it goes past its first card only when most of its minds agree); in
  Duet it guesses by the probabilities of :mod:`codebots.agents.duet_reader` (the key
  structure of its own side and the clue's evidence), going on while a green is worth the
  risk and never past the clue's number but on the last turn, when the bank empties whether
  it stops or touches a bystander (the spymaster then counts only the assassins as threats).

docs/cross-model-notes.md has the measurements behind each setting.
"""

from __future__ import annotations

from codebots.agents.base import uses_rng
from codebots.agents.embedding import EmbeddingSpymaster
from codebots.agents.guesser import EmbeddingGuesser
from codebots.agents.registry import option_flag, option_value
from codebots.errors import CodebotsError
from codebots.minds import PANEL, check_minds

# The committee's first mind supplies the candidate clues, the frequency prior and the
# dictionary filter: the strongest left, in this order (nomic, the fifth mind, was measured
# as a voice in the committee, not as the source of candidates; gcide, the sixth, beside
# WordNet, with which it is one voice).
PREFERENCE = ("mpnet", "minilm", "glove", "wordnet", "gcide", "nomic")
# Minds that speak as one voice when both are in a committee: a cosine the mean of theirs.
# Two dictionaries as two voices of a worst-margin committee outvote the rest (GloVe and
# MiniLM partners lost 3-7 points of Marvel co-op and Duet wins); as one voice the second
# dictionary moves the WordNet partner's games and leaves the others' (docs/cross-model-
# notes.md, "A second dictionary").
JOINED = (("wordnet", "gcide"),)
GUESSER_OPTIONS = ("without",)
# min_zipf: clue words at least this common (wordfreq's Zipf scale: 3 is once in a million
# words, 4 ten times, 6 the commonest words), for a person who would rather not meet
# "vaulter" or "cuticle"; off by default: with a model partner it costs the timed games
# (docs/cross-model-notes.md, "Plain clue words for a person").
# expert_clues: the catch-up "unlimited" and "0" clues of the timed games (RULES sections 1
# and 3); false gives a number of cards on every clue, which tells a person how many were
# meant, at half a point of Duet wins with the panel's minds as partners (docs/cross-model-
# notes.md, "Numbers instead of unlimited").
SPYMASTER_OPTIONS = ("without", "min_zipf", "expert_clues")


def committee(without: str = "") -> tuple[str, ...]:
    """The panel minds left when the minds (and their families) in ``without`` are left out;
    ``without`` is a mind or ``+``-joined minds (``minilm+mpnet``)."""
    left_out = check_minds(without.split("+")) if without else ()
    families = {PANEL[mind].family for mind in left_out}
    minds = tuple(
        mind
        for mind in (*PREFERENCE, *(m for m in PANEL if m not in PREFERENCE))
        if PANEL[mind].family not in families
    )
    if not minds:
        raise CodebotsError(
            f"crossplay[without={without}] leaves no mind to think with; leave out fewer "
            f"(the panel: {', '.join(PANEL)})"
        )
    return minds


def voices(minds: tuple[str, ...]) -> tuple[str, ...]:
    """The committee's voices: its minds, those of a :data:`JOINED` group present together
    as one ``+``-joined voice (in the place of the group's first)."""
    out: list[str] = []
    for mind in minds:
        group = next((g for g in JOINED if mind in g and set(g) <= set(minds)), (mind,))
        if mind == group[0]:
            out.append("+".join(group))
    return tuple(out)


def _check(without: str = "", min_zipf=None, expert_clues=None) -> float:
    """Check the name's options (a one-line error); the clue words' Zipf floor (0: none)."""
    committee(without)
    if expert_clues is not None:
        option_flag("crossplay", "expert_clues", expert_clues)
    if min_zipf is None or min_zipf == "":
        return 0.0
    return option_value("crossplay", "min_zipf", min_zipf, float, 3.0, 6.0)


# Careful clues for a partner of another mind (docs/cross-model-notes.md): a clear margin,
# the assassin far down every model's list and, where "0" clues are allowed, four opening
# warnings at it (and at the other team's last agent once it is as deadly) instead of the
# catch-up expert clues. The lexicon spymasters use them too (codebots.agents.registered).
CAREFUL_CLUES = {
    "margin_weight": 1.0,
    "min_margin": 0.5,
    "assassin_below": 8,
    "warnings": 4,
    "last_agent_deadly": True,
    "expert_clues": False,
}
# Single-team games, where nothing but clues is counted (measured on seeds 1000 and up, 300
# games a partner): the careful clues, aiming only at cards WordNet relates to the clue when
# WordNet is in the committee.
SINGLE_TEAM = CAREFUL_CLUES
# Duet, Marvel co-op and classic, where every clue costs time: the committee's worst margin
# alone (a far assassin costs more turns than it saves there); in Marvel co-op the virtual
# team's agent covered is the one whose removal makes the next clue best.
#
# Duet and the missions, on the last turn (its end empties the bank, by a stop or by a
# bystander alike): the spymaster's threats are the assassins only, and the reader goes on
# past the number while a green is at least as likely as the assassin (tuning seeds
# 3000-3499 and 4000-4999: Duet +0.1 to +1.5 points with every partner, 0.6 on average;
# docs/cross-model-notes.md, "The last turn").
TIMED: dict = {"cover_policy": "lookahead", "last_turn_bystanders": False}
# Duet (not the missions): each card's 400 nearest clue words are candidates, not the
# tables' 100 (tuning seeds 1300-1599, 2300-2799 and 3300-4299: +1.6 to +1.9 points of Duet
# wins on average over the partners, 0.1-0.3 clues fewer a win; 117-150 Duet games/s
# instead of 400, make bench 117; 138-158 with the card-major gather). The Diagon Alley
# mission did not move (seeds 1300-1799 and 2300-2799: -0.2 and +0.05 points on average)
# and Marvel co-op gained less (+0.4 to +2.5) at a tenth of the speed (its cover lookahead
# scores every clue again for each card it might cover): both keep 100. Fewer than 100
# lost up to 15 points, a round robin over the committee's lists 4-9
# (docs/cross-model-notes.md, "Wider candidate lists for Duet").
DUET: dict = {**TIMED, "candidates": 400}
# How the guesser reads a clue: each mind's own z-scores, each mind weighted by the square
# of how far its best card stands out (tuning seeds 1000-1299 and 2000-2299: Marvel co-op
# +1-2 points, first guesses +0-2). The Duet reader's weights were fitted on the committee's
# pooled z; refitted on this reading (tuning seeds 1300-1799: Duet +2.3 points, Diagon Alley
# -1.5) they were not shipped (docs/cross-model-notes.md).
READING = {"minds_apart": True, "confidence_power": 2.0, "last_turn_threshold": 0.0}


class CrossplaySpymaster:
    """The committee spymaster with the settings of the game at hand (see the module doc)."""

    def __init__(self, without: str = "", **options):
        minds = committee(without)
        # A clue's intended targets (the turn log's, the explanations', the leftovers of
        # expert clues) are the ones the minds together read nearest.
        options = {"consensus_aims": True, **options}
        lexicon = {"lexicon": "wordnet" in minds}
        self.models = voices(minds)
        self.single = EmbeddingSpymaster(
            models=self.models, **{**SINGLE_TEAM, **lexicon, **options}
        )
        self.timed = EmbeddingSpymaster(models=self.models, **{**TIMED, **options})
        self.duet = EmbeddingSpymaster(models=self.models, **{**DUET, **options})
        self._kinds = (self.single, self.timed, self.duet)
        self.minds = frozenset().union(*(kind.minds for kind in self._kinds))
        self.vocabulary = self.single.vocabulary
        self.name = "crossplay"

    def _for(self, variant) -> EmbeddingSpymaster:
        """Single-team games count only clues; the rest are played against the clock."""
        if variant.family == "duet" and variant.mission is None:
            return self.duet
        untimed = variant.family == "team" and variant.opponent == "none"
        return self.single if untimed else self.timed

    @property
    def uses_rng(self) -> bool:
        return any(uses_rng(kind) for kind in self._kinds)

    @property
    def partner(self):
        return self.single.partner

    @partner.setter
    def partner(self, memory) -> None:
        for kind in self._kinds:
            kind.partner = memory

    def begin(self, size: int) -> None:
        for kind in self._kinds:
            kind.begin(size)

    def remember(self, game: int, word: str, targets=(), number: int = 1) -> None:
        for kind in self._kinds:
            kind.remember(game, word, targets, number)

    def tables(self, words):
        return self.single.tables(words)

    def clues(self, view, rng):
        return self._for(view.variant).clues(view, rng)

    def covers(self, view, rng):
        return self.timed.covers(view, rng)

    def top_clues(self, view, game: int = 0, k: int = 5) -> list[dict]:
        return self._for(view.variant).top_clues(view, game, k)

    def agreeing_minds(self, view, game: int, word: str, targets) -> list[str]:
        return self._for(view.variant).agreeing_minds(view, game, word, targets)


def crossplay_spymaster(
    without: str = "", min_zipf=None, expert_clues=None, **options
) -> CrossplaySpymaster:
    """The cross-play spymaster thinking with every panel mind but ``without``; with
    ``min_zipf``, only clue words at least that common; ``expert_clues`` (true or false):
    whether it may give ``0`` and ``unlimited`` clues where the variant allows them (each
    game kind's own setting when not given)."""
    if expert_clues is not None:
        options["expert_clues"] = option_flag("crossplay", "expert_clues", expert_clues)
    return CrossplaySpymaster(without, min_zipf=_check(without, min_zipf), **options)


def crossplay_guesser(without: str = "", **options) -> EmbeddingGuesser:
    """The cross-play guesser: each of its minds' z of the cards for the clue, averaged; in
    single-team games past the first card only when most of its minds agree; in Duet the
    reader by probabilities (:mod:`codebots.agents.duet_reader`) fitted without the left-out
    minds."""
    left_out = tuple(check_minds(without.split("+"))) if without else ()
    parts = voices(committee(without))
    options = {"duet_reader": left_out, "solo_majority": True, **READING, **options}
    return EmbeddingGuesser(model="+".join(parts), name="crossplay", voices=parts, **options)


crossplay_spymaster.name_options = SPYMASTER_OPTIONS
crossplay_spymaster.check_options = _check
crossplay_guesser.name_options = GUESSER_OPTIONS
crossplay_guesser.check_options = committee
