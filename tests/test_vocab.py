"""Word pools: the shipped ones load, bad files are one-line errors naming the fix."""

from __future__ import annotations

import pytest

from codebots.errors import CodebotsError
from codebots.vocab import available_pools, clue_vocabulary, load_pool


def test_shipped_pools_load():
    assert {"competition", "wizarding", "superheroes"} <= set(available_pools())
    wizarding = load_pool("wizarding")
    assert "HARRY POTTER" in wizarding.words and "POLYJUICE POTION" in wizarding.words
    assert len(wizarding) >= 100 and len(load_pool("superheroes")) >= 100
    assert load_pool("competition").index("africa") == 0


def write(tmp_path, lines, name="pool.txt"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize(
    "lines, message",
    [
        (["APPLE", "PEAR", "PLUM"], "3 distinct cards, a board needs at least 25"),
        (["APPLE", "", "PEAR"], "line 2 is blank"),
        (["APPLE", "PEAR", "apple"], "line 3 'apple' duplicates line 1"),
        (["APPLE", "ICE-CREAM"], "line 2 'ICE-CREAM' must be words of letters"),
    ],
)
def test_bad_pools_are_one_line_errors(tmp_path, lines, message):
    with pytest.raises(CodebotsError, match=message) as error:
        load_pool(write(tmp_path, lines))
    assert "\n" not in str(error.value)


def test_a_valid_custom_pool(tmp_path):
    names = [f"CARD {chr(65 + i)}{chr(65 + i)}" for i in range(26)]
    pool = load_pool(write(tmp_path, names))
    assert len(pool) == 26 and pool.words[0] == "CARD AA"


def test_unknown_pool_names_the_known_ones():
    with pytest.raises(
        CodebotsError, match="unknown word pool 'atlantis'; known pools: .*competition"
    ):
        load_pool("atlantis")


def test_unknown_card_is_a_clear_error():
    with pytest.raises(CodebotsError, match="'xyzzy' is not a card of the pool 'competition'"):
        load_pool("competition").index("xyzzy")


def test_the_baselines_vocabulary_is_real_words_without_function_words():
    words = clue_vocabulary(2000)
    assert len(words) == 2000
    assert all(w.isalpha() and len(w) >= 3 for w in words)
    assert not {"the", "you", "and", "with"} & set(words)
    assert {"water", "music", "house"} <= set(words)


def test_clue_vocabulary_filters():
    from codebots.vocab import offensive_words

    words = clue_vocabulary(20_000)
    assert len(words) == 20_000 and len(set(words)) == 20_000
    assert all(w.isascii() and w.isalpha() and w.islower() and len(w) >= 3 for w in words)
    assert not set(words) & offensive_words()
    assert not {"the", "you", "with", "would"} & set(words)
    assert len(offensive_words()) > 100  # the filter list is really there
    assert "offensive" not in available_pools()  # a filter, not a board pool
