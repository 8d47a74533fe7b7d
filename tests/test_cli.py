"""The command line, driven through typer's CliRunner: tables, files and one-line errors."""

from __future__ import annotations

import pandas as pd
import pytest
from typer.testing import CliRunner

from codebots.cli import app

runner = CliRunner()


def test_variants_lists_every_id_with_a_description():
    result = runner.invoke(app, ["variants"])
    assert result.exit_code == 0
    lines = result.output.strip().splitlines()
    assert len(lines) == 29  # 5 variants + 24 missions
    assert any(line.startswith("mission/diagon-alley ") and "11/3" in line for line in lines)


def test_agents_lists_every_registered_agent_with_a_summary():
    from codebots.agents import GUESSERS, SPYMASTERS

    result = runner.invoke(app, ["agents"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    spymasters = lines[1 : lines.index("guessers:")]
    guessers = lines[lines.index("guessers:") + 1 :]
    assert lines[0] == "spymasters:"
    for listed, registry in ((spymasters, SPYMASTERS), (guessers, GUESSERS)):
        assert [line.split()[0] for line in listed] == list(registry)
        assert all(len(line.split()) >= 3 for line in listed)  # a name and its summary
    assert any(line.split()[0] == "glove-lexicon" and "WordNet" in line for line in spymasters)


def test_simulate_prints_the_table_and_writes_records(tmp_path):
    out = tmp_path / "games.csv"
    result = runner.invoke(
        app,
        [
            "simulate",
            "--variant",
            "duet",
            "--spymaster",
            "random",
            "--guesser",
            "oracle",
            "--games",
            "300",
            "--seed",
            "0",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    header = result.output.splitlines()[0].split()
    assert header[:7] == ["variant", "spymaster", "guesser", "seats", "cross", "games", "win_rate"]
    assert "assassin_rate" in header and "mean_score" in header and "mean_turns" in header
    records = pd.read_csv(out)
    assert len(records) == 300 and records["seed"].tolist() == list(range(300))
    assert set(records["variant"]) == {"duet"} and set(records["guesser"]) == {"oracle"}
    assert records["won"].all()  # the oracle never misses on its own key


def test_simulate_markdown_for_a_variant_with_options():
    result = runner.invoke(
        app,
        [
            "simulate",
            "--variant",
            "classic[infinity_gauntlet]",
            "--guesser",
            "random",
            "--games",
            "50",
            "--markdown",
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith("| variant | spymaster |")
    assert "classic[infinity_gauntlet]" in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["--variant", "nope"], "error: unknown variant 'nope'; known variants: classic"),
        (["--games", "0"], "error: --games must be at least 1, got 0"),
        (["--games", "-5"], "error: --games must be at least 1, got -5"),
        (["--seed", "abc"], "error: --seed must be an integer, got 'abc'"),
        (["--seed", "1.5"], "error: --seed must be an integer, got '1.5'"),
        (
            ["--spymaster", "genius"],
            "error: unknown spymaster 'genius'; known: crossplay, gcide, glove,",
        ),
        (
            ["--guesser", "psychic"],
            "error: unknown guesser 'psychic'; known: crossplay, gcide, glove, glove-lexicon, "
            "minilm",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_code_1(args, message):
    result = runner.invoke(app, ["simulate", *args])
    assert result.exit_code == 1
    assert result.output.strip().startswith(message)
    assert len(result.output.strip().splitlines()) == 1


DOCUMENTED = ["Makefile", "README.md", "docs/agents.md", "experiments/README.md"]


def documented_commands() -> list[str]:
    """Every ``codebots ...`` command line in the Makefile and the docs (continuations joined)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    commands = []
    for name in DOCUMENTED:
        text = (root / name).read_text().replace("\\\n", " ")
        commands += [
            m.group(0) for m in re.finditer(r"codebots (simulate|evaluate|watch|play) .*", text)
        ]
    return commands


def test_every_documented_command_names_registered_variants_and_agents():
    # `make demo` once named a guesser as a spymaster; the docs' commands are the first ones
    # a user runs, so every variant and agent they name must exist.
    import re
    import shlex

    from codebots.agents.registry import check_agent
    from codebots.grid_config import parse_pairs, split_pair
    from codebots.variants import get_variant, split_labels

    commands = documented_commands()
    assert any("evaluate" in c for c in commands) and any("simulate" in c for c in commands)
    for command in commands:
        words = shlex.split(command.split("#")[0])
        options = {word: words[i + 1] for i, word in enumerate(words[:-1]) if word.startswith("--")}
        for label in split_labels(options.get("--variant", "single-team-2019")):
            get_variant(label)
        pairs = parse_pairs(options["--pairs"].split(",")) if "--pairs" in options else ()
        spymasters, guessers = [options.get("--spymaster", "random")], []
        guessers.append(options.get("--guesser", "random"))
        for first, second, seats in map(split_pair, pairs):
            spymasters += [first, second] if seats else [first]
            guessers += [first, second] if seats else [second]
        for name in spymasters:
            check_agent("spymaster", name)  # an unknown name fails the test
        for name in guessers:
            check_agent("guesser", name)
        assert re.fullmatch(r"\d+", options.get("--games", "1")), command
