"""The variant registry, option labels and their errors, and the mission log catalogue."""

from __future__ import annotations

import pytest

from codebots.errors import CodebotsError
from codebots.missions import MISSIONS, token_setup
from codebots.variants import VARIANTS, get_variant


def test_registry_has_every_variant_and_one_id_per_mission():
    for name in ("classic", "marvel-coop", "single-team-2019", "single-team-2025", "duet"):
        assert name in VARIANTS
    assert len(MISSIONS) == 24
    for mission in MISSIONS:
        assert VARIANTS[mission.variant_id].mission == mission.slug
    assert "mission/diagon-alley" in VARIANTS


def test_unknown_variant_lists_the_known_ids():
    with pytest.raises(CodebotsError) as error:
        get_variant("quantum-codenames")
    message = str(error.value)
    assert "unknown variant 'quantum-codenames'" in message
    assert "classic" in message and "mission/diagon-alley" in message
    assert "\n" not in message


def test_labels_round_trip():
    spec = get_variant("duet[tokens=11,loose_turn_order]")
    assert spec.tokens == 11 and spec.mistakes == 11 and spec.loose_turn_order
    assert spec.label == "duet[loose_turn_order,tokens=11]"
    assert get_variant(spec.label) == spec
    assert get_variant("classic").label == "classic"


@pytest.mark.parametrize(
    "label, message",
    [
        ("duet[tokens=13]", "duet tokens must be 9..12"),
        ("duet[tokens=ten]", "takes an integer"),
        ("classic[warp_speed]", "has no option 'warp_speed'"),
        ("classic[tokens=11]", "has no option 'tokens'"),
        ("mission/gringotts[tokens=11]", "has no option 'tokens'"),
        ("classic[invalid_clue=shout]", "invalid_clue must be one of"),
        ("duet[expert=maybe]", "takes true/false"),
    ],
)
def test_bad_options_are_one_line_errors(label, message):
    with pytest.raises(CodebotsError, match=message) as error:
        get_variant(label)
    assert "\n" not in str(error.value)


def test_rule_counts_of_the_registered_variants():
    assert get_variant("classic").counts == (9, 8, 7, 1)
    assert get_variant("single-team-2019").counts == (8, 7, 9, 1)
    assert get_variant("single-team-2025").counts == (9, 8, 7, 1)
    assert get_variant("marvel-coop").opponent == "virtual"
    assert get_variant("duet").token_setup == (0, 10)  # 10 tokens, all mistake-side up


def test_mission_token_setups_follow_the_table():
    assert get_variant("mission/privet-drive").token_setup == (5, 5)
    assert get_variant("mission/train-station").token_setup == (12, 0)
    assert get_variant("mission/battle-of-the-atrium").token_setup == (3, 4)
    assert get_variant("mission/diagon-alley").two_word_clues == 3  # London bonus x3
    assert get_variant("mission/hagrids-hut").touch_two == 2  # Hogwarts bonus x2
    assert get_variant("mission/honeydukes").mark_bystander == 1  # Hogsmeade bonus x1
    assert get_variant("mission/hall-of-prophecy").touch_two == 0  # the Ministry has none


def test_token_rewards_and_expert():
    assert token_setup(10, 10, expert=True) == (0, 9)
    assert token_setup(10, 5, expert=True) == (4, 5)  # a time-side token goes first
    assert token_setup(11, 3, extra_mistake_token=True) == (8, 4)
    assert token_setup(12, 0, extra_mistake_token=True) == (12, 0)  # 12 max
    assert token_setup(11, 1, extra_time_tokens=True) == (11, 1)  # 12 max: only one added
    assert token_setup(9, 4, extra_time_tokens=True) == (7, 4)
    assert token_setup(10, 4, flip_time_to_mistake=True) == (4, 6)
    assert token_setup(10, 9, flip_time_to_mistake=True) == (0, 10)  # only one to flip


def test_split_labels_keeps_commas_inside_option_lists():
    from codebots.variants import split_labels

    assert split_labels("single-team-2019, duet[tokens=11,expert],classic") == (
        "single-team-2019",
        "duet[tokens=11,expert]",
        "classic",
    )
    assert split_labels("duet[tokens=11,loose_turn_order]") == ("duet[tokens=11,loose_turn_order]",)
