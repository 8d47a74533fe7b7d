"""The embedding spymaster's scoring: every (number, candidate clue) of a block of games.

A candidate clue ``c`` for ``n`` targets scores ``n + margin_weight * min(margin, MARGIN_CAP)
+ prior_weight * prior(c)`` where the margin is ``t_n - threat`` (the n-th target's z minus
the highest z of any other visible card plus its danger), worst over the spymaster's models;
see :mod:`codebots.agents.embedding` for the whole rule. The work runs in ``(G, S, T, K)``
arrays (:mod:`codebots.agents.board_gather`): G games, S target slots, the T cards that
count (targets and threats), K candidates per slot.
"""

from __future__ import annotations

import numpy as np

from codebots.agents.board_gather import RowMax, descending, penalty
from codebots.agents.guesser import MAX_TARGETS, MEMORY
from codebots.agents.tables import familiar, forbid_for
from codebots.agents.views import ASSASSIN, BYSTANDER, OTHER, OWN, SpymasterView
from codebots.lexicon import relation_matrix

MARGIN_CAP = 3.0  # z units: beyond this a wider margin buys nothing


def score_clues(spymaster, view: SpymasterView, games: np.ndarray):
    """Scores of every (number, candidate clue) of ``spymaster`` (an embedding spymaster) for
    the games in ``games``.

    Returns ``(score (G, S, C), candidates (G, C), layout (G, 25), targets_l (G, 9),
    cards_l (G, 25), margins (G, S, C), fell_back (G,))``: the scores of the feasible clues
    (-inf elsewhere; with none feasible, the fallback's single-target scores at number 1),
    numbers 1..S, S the block's most targets left (a larger number has no n-th target).
    """
    tables = spymaster.tables(view.words)
    main = tables[0]
    cards = view.cards[games]  # (G, 25)
    visible = view.visible[games]
    identity = spymaster._deadly(view, games)
    targets = (identity == OWN) & visible  # (G, 25)
    threats = visible & ~targets & ~view.known_wrong[games]
    if not spymaster.last_turn_bystanders and view.last_turn is not None:
        # Duet's last turn: a bystander ends it as a stop would, with the bank empty either
        # way; only the assassins are threats (docs/cross-model-notes.md, "The last turn").
        threats &= ~(view.last_turn[games, None] & (identity == BYSTANDER))
    # Lay each board out targets first (slots 0..8 hold the at most 9 targets), then its
    # threats, then the cards that count for nothing (revealed, known wrong): the work
    # over a block's cards stops after its last threat.
    kind = (~targets).astype(np.int8) + (~targets & ~threats)  # 0 target, 1 threat, 2 none
    layout = np.argsort(kind, axis=1, kind="stable")  # (G, 25)
    cards_l = np.take_along_axis(cards, layout, axis=1)
    targets_l = np.take_along_axis(targets, layout, axis=1)[:, :MAX_TARGETS]
    threats_l = np.take_along_axis(threats, layout, axis=1)
    identity_l = np.take_along_axis(identity, layout, axis=1)
    size = len(games)
    gather = spymaster._gather(view.words)
    width = gather.width
    # Late in a game the block has fewer targets: S slots, C = S * K candidates.
    slots = max(int(targets_l.sum(axis=1).max()), 1)
    counted = max(int((targets | threats).sum(axis=1).max()), slots)  # T: cards that count
    candidates = gather.candidates(cards_l, slots)  # (G, C)
    candidate_ok = np.repeat(targets_l[:, :slots], width, axis=1)
    forbid = forbid_for(view.variant, main)
    candidate_ok &= ~gather.forbidden(forbid, cards, visible, cards_l, slots)
    if len(spymaster._given_count) == len(view.active):  # never the same clue twice
        given = spymaster._given[games]  # (G, MEMORY), -1 past each game's count
        for slot in range(min(int(spymaster._given_count[games].max(initial=0)), MEMORY)):
            candidate_ok &= candidates != given[:, slot, None]
    valid_ok = candidate_ok.copy()  # every clue the fallback may use
    if spymaster.dictionary_only:  # names and brands are trivia another model may not share
        candidate_ok &= main.dictionary[candidates]
    candidate_ok &= familiar(main, candidates, spymaster.min_zipf)  # a person's words

    # The work runs in (G, 25, S, K) (see codebots.agents.board_gather): candidate (j, k)
    # is neighbour k of slot j; masks are (G, 25, 1, 1) additive float32 penalties (0,
    # or -inf where a card does not count: the same maxima and sorted values).
    def per_card(mask):  # (G, 25) -> (G, 25, 1, 1)
        return mask[:, :, None, None]

    aimable = per_card(targets_l[:, :slots])  # (G, S, 1, 1)
    target_add = None
    if spymaster.lexicon:  # only targets the lexicon relates to the clue may be intended
        relation = relation_matrix(view.words, spymaster.vocabulary)
        aimable = aimable & gather.related(relation, cards_l[:, :slots])  # (G, S, S, K)
        target_add = penalty(per_card(targets_l[:, :slots]))
    aim_add = penalty(aimable)
    # Slots before the block's fewest targets hold targets in every game: no threat there.
    rest = slice(int(targets_l.sum(axis=1).min()), counted)
    threats_l, identity_l = threats_l[:, rest], identity_l[:, rest]  # (G, R), R <= T
    threat_add = penalty(per_card(threats_l), per_card(spymaster.danger[identity_l]))
    assassin_max = RowMax(threats_l & (identity_l == ASSASSIN))  # over the (G, R) assassins
    threats_4 = per_card(threats_l)  # (G, R, 1, 1)
    learned = spymaster._learned(view.words, cards_l[:, :counted], candidates)  # (G, T, C)
    margins = floors = plain = None
    for model in range(len(tables)):
        sims = gather.sims(model, cards_l[:, :slots], cards_l[:, :counted])  # (G, T, S, K)
        if learned is not None:
            sims += learned.reshape(size, counted, slots, width)
        ranked = descending(sims[:, :slots] + aim_add, axis=1)  # S x (G, S, K)
        others = sims[:, rest]  # (G, R, S, K)
        threat = (others + threat_add).max(axis=1)  # (G, S, K)
        margin = np.stack([value - threat for value in ranked], axis=1)  # (G, S', S, K)
        margins = margin if margins is None else np.minimum(margins, margin)
        if target_add is None:  # the aimable cards are the targets: t_1 is the best
            best_target = ranked[0]
        else:
            best_target = (sims[:, :slots] + target_add).max(axis=1)
        first = best_target - threat  # (G, S, K): single-target margin, any target
        plain = first if plain is None else np.minimum(plain, first)
        ranked = np.stack(ranked, axis=1)
        floors = ranked if floors is None else np.minimum(floors, ranked)
        # Absolute caps: a clue must be unrelated to the assassin (and other team).
        for code, cap in ((OTHER, spymaster.max_danger[0]), (ASSASSIN, spymaster.max_danger[1])):
            if np.isfinite(cap):
                near = per_card(threats_l & (identity_l == code)) & (others > cap)
                candidate_ok &= ~near.any(axis=1).reshape(size, -1)
        if spymaster.assassin_below:
            # A partner's wrong guesses go mostly to the cards the clue is nearest to:
            # keep at least this many other non-targets between the clue and the assassin.
            assassin = assassin_max(others)  # (G, S, K)
            closer = others > assassin[:, None]  # (G, R, S, K)
            closer &= threats_4
            # Counted in bytes (R <= 25): the same count, without widening every bool.
            closer = closer.view(np.uint8).sum(axis=1, dtype=np.uint8)  # (G, S, K)
            candidate_ok &= closer.reshape(size, -1) >= spymaster.assassin_below
    # Numbers 1..S' (S' = S): a number past the slots has no n-th target, so no clue.
    margins = margins.reshape(size, slots, -1)  # (G, S', C)
    floors = floors.reshape(size, slots, -1)
    plain = plain.reshape(size, -1)
    number = np.arange(1, slots + 1, dtype=np.float32)[None, :, None]
    limit = np.minimum(targets_l.sum(axis=1), spymaster.max_number)[:, None, None]
    possible = candidate_ok[:, None, :] & (number <= limit) & np.isfinite(margins)
    score = (
        number
        + spymaster.margin_weight * np.minimum(margins, MARGIN_CAP)
        + spymaster.prior_weight * main.prior[candidates][:, None, :]
    )
    feasible = possible & (margins >= spymaster.min_margin) & (floors >= spymaster.min_target)
    score[~feasible] = -np.inf
    fell_back = ~feasible.any(axis=(1, 2))  # (G,)
    if fell_back.any():
        # With no feasible clue: the single-target clue with the best margin, from the
        # candidates that pass every preference, else from any valid candidate.
        rows = np.flatnonzero(fell_back)
        plain_ok = candidate_ok[rows] & np.isfinite(plain[rows])  # (F, C)
        valid_rows = valid_ok[rows] & np.isfinite(plain[rows])
        # A person's floor on the words (min_zipf) holds as long as any valid word meets it.
        familiar_rows = valid_rows & familiar(main, candidates[rows], spymaster.min_zipf)
        relaxed = np.where(
            plain_ok.any(axis=1, keepdims=True),
            plain_ok,
            np.where(familiar_rows.any(axis=1, keepdims=True), familiar_rows, valid_rows),
        )
        score[rows, 0, :] = np.where(relaxed, plain[rows], -np.inf)
    return score, candidates, layout, targets_l, cards_l, margins, fell_back
