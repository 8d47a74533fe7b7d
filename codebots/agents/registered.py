"""The embedding agents registered by name (``codebots agents`` lists them).

Importing this module registers them; ``codebots.agents`` does so.
"""

from __future__ import annotations

from codebots.agents.crossplay import CAREFUL_CLUES, crossplay_guesser, crossplay_spymaster
from codebots.agents.embedding import EmbeddingSpymaster
from codebots.agents.guesser import EmbeddingGuesser
from codebots.agents.registry import make_agent, register, split_agent_name

EMBEDDING_SPYMASTERS: list[str] = []  # the names `codebots clue` accepts


def embedding_spymaster(name: str, need: str) -> EmbeddingSpymaster:
    """The registered embedding spymaster ``name``; a one-line error, saying what it was
    needed for (``need``), for any other spymaster."""
    if split_agent_name(name)[0] not in EMBEDDING_SPYMASTERS:
        from codebots.errors import CodebotsError

        raise CodebotsError(
            f"'{name}' is not an embedding spymaster ({need}); use one of "
            + ", ".join(EMBEDDING_SPYMASTERS)
        )
    return make_agent("spymaster", name)


def _spymaster(name: str, models: tuple[str, ...], summary: str, **fixed) -> None:
    def factory(**options):
        return EmbeddingSpymaster(models=models, name=name, **{**fixed, **options})

    register("spymaster", name, summary)(factory)
    EMBEDDING_SPYMASTERS.append(name)


def _guesser(name: str, model: str, summary: str, **fixed) -> None:
    def factory(**options):
        return EmbeddingGuesser(model=model, name=name, **{**fixed, **options})

    register("guesser", name, summary)(factory)


_spymaster("glove", ("glove",), "Margin clues from GloVe 6B 50d (the default).")
_spymaster("minilm", ("minilm",), "Margin clues from all-MiniLM-L6-v2 word encodings.")
_spymaster("mpnet", ("mpnet",), "Margin clues from all-mpnet-base-v2 word encodings.")
_spymaster("nomic", ("nomic",), "Margin clues from nomic-embed-text-v1.5 word encodings.")
_spymaster("wordnet", ("wordnet",), "Margin clues from word vectors trained on WordNet's glosses.")
_spymaster("gcide", ("gcide",), "Margin clues from the GCIDE dictionary's and Wikipedia's vectors.")
_spymaster(
    "robust",
    ("glove", "minilm"),
    "Worst margin over GloVe and MiniLM (its partner's model is inside it).",
)
# Partner-safe spymasters: their own model only, but every intended target must be one the
# lexicon relates to the clue, and a clue needs a clear margin (docs/cross-model-notes.md).
LEXICON_SETTINGS = {"lexicon": True, **CAREFUL_CLUES}
# Their clues must also keep the margin under word vectors learned from the dictionary's
# glosses (codebots.gloss_vectors): a second mind that is not the partner's.
_spymaster(
    "glove-lexicon",
    ("glove", "wordnet"),
    "GloVe clues WordNet backs, for a partner with another model (single-team research).",
    **LEXICON_SETTINGS,
)
_spymaster(
    "minilm-lexicon",
    ("minilm", "wordnet"),
    "MiniLM clues WordNet backs, for a partner with another model (single-team research).",
    **LEXICON_SETTINGS,
)
_spymaster(
    "glove-random-cover",
    ("glove",),
    "The glove spymaster covering a random virtual agent (Marvel co-op baseline).",
    cover_policy="random",
)
_guesser("glove", "glove", "Touches the cards nearest the clue (GloVe), up to its number.")
_guesser("minilm", "minilm", "Touches the cards nearest the clue (MiniLM), up to its number.")
_guesser("mpnet", "mpnet", "Touches the cards nearest the clue (MPNet), up to its number.")
_guesser("nomic", "nomic", "Touches the cards nearest the clue (Nomic), up to its number.")
_guesser("wordnet", "wordnet", "Touches the cards nearest the clue (WordNet gloss vectors).")
_guesser("gcide", "gcide", "Touches the cards nearest the clue (GCIDE and Wikipedia vectors).")
# Guessers that also consult the lexicon: both sides then share it, so a pairing with a
# lexicon spymaster is reported apart from the cross-model bar (docs/cross-model-notes.md).
LEXICON_GUESSER_WEIGHT = 2.0
_guesser(
    "glove-lexicon",
    "glove",
    "The glove guesser plus a bonus for cards WordNet relates to the clue.",
    lexicon_weight=LEXICON_GUESSER_WEIGHT,
)
_guesser(
    "minilm-lexicon",
    "minilm",
    "The minilm guesser plus a bonus for cards WordNet relates to the clue.",
    lexicon_weight=LEXICON_GUESSER_WEIGHT,
)
_guesser(
    "nearest",
    "glove",
    "GloVe nearest cards, number + 1 of them, no stopping rule (2019 competition bots).",
    stop_at_number=False,
)

# Cross-play agents (codebots.agents.crossplay): a committee of every panel mind but the
# partner's, `crossplay[without=M]`; the plain name uses every mind (a person's partner).
register(
    "spymaster",
    "crossplay",
    "Clues every panel mind reads alike (crossplay[without=M]: all but mind M; "
    "[min_zipf=4]: common words only).",
)(crossplay_spymaster)
EMBEDDING_SPYMASTERS.append("crossplay")
register(
    "guesser",
    "crossplay",
    "The cards the panel minds put nearest the clue, each mind weighted by how sure it is "
    "(crossplay[without=M]).",
)(crossplay_guesser)
