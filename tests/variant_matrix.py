"""Every registered variant, plus option combinations, for the property tests."""

from codebots.variants import VARIANTS

OPTION_LABELS = [
    "classic[infinity_gauntlet]",
    "classic[invalid_clue=forfeit]",
    "classic[invalid_clue=accept]",
    "classic[zero_clues=false,unlimited_clues=false]",
    "marvel-coop[infinity_gauntlet]",
    "marvel-coop[invalid_clue=forfeit]",
    "single-team-2019[invalid_clue=forfeit]",
    "single-team-2019[zero_clues=false]",
    "single-team-2025[board_source=pool]",
    "duet[loose_turn_order]",
    "duet[tokens=9]",
    "duet[tokens=12]",
    "duet[expert]",
    "duet[invalid_clue=forfeit]",
    "duet[invalid_clue=accept]",
    "duet[fourteen_of_fifteen,sudden_death_forgiveness=1,double_clues=1,extra_mistake_token]",
    "duet[extra_time_tokens,flip_time_to_mistake,touch_two=2,mark_bystander=1,two_word_clues=3]",
    "mission/train-station[sudden_death_forgiveness=1,expert]",
    "mission/hogsmeade[loose_turn_order,extra_time_tokens]",
]
ALL_LABELS = list(VARIANTS) + OPTION_LABELS
