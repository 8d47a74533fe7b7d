"""``codebots serve``: the web table over HTTP (the real app, real agents, real records).

Browser tests that drive a real headless Chromium are in ``tests/test_web_browser.py``.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[web]'")

from fastapi.testclient import TestClient  # noqa: E402

from codebots.play import Session  # noqa: E402
from codebots.web.app import create_app  # noqa: E402

CARD = re.compile(r'<(button|div) [^>]*class="(card[^"]*)"[^>]*data-coordinate="([A-E][1-5])"')
MOVES = re.compile(r'name="moves" value="(\d+)"')
AI = {"spymaster": "glove", "guesser": "glove"}  # quick to load; the default is crossplay


@pytest.fixture
def client(tmp_path):
    return TestClient(create_app(tmp_path / "records"))


def start(client, variant="single-team-2019", role="guesser", seed="3", **extra):
    form = {"variant": variant, "role": role, "seed": seed, **AI, **extra}
    response = client.post("/games", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text
    return response.headers["location"].rsplit("/", 1)[1]


def cards_on(page: str) -> dict[str, str]:
    """Grid square -> the card's class list, from a table page."""
    return {square: classes for _, classes, square in CARD.findall(page)}


def identities_shown(page: str) -> dict[str, str]:
    """Squares of cards *in play* whose identity the page shows -> that identity."""
    shown = {}
    for square, classes in cards_on(page).items():
        if "covered" not in classes.split():
            found = [c[3:] for c in classes.split() if c.startswith("is-")]
            if found:
                shown[square] = found[0]
    return shown


def clickable_words(page: str) -> list[str]:
    return re.findall(r'<button type="submit" form="move" name="card" value="([^"]+)"', page)


def play_to_end(client, game_id: str, check=None, limit: int = 200) -> str:
    """Guess the first clickable card (or stop, or pass, or give a clue) until the game ends;
    ``check(page)`` on every page served."""
    for _ in range(limit):
        page = client.get(f"/games/{game_id}").text
        if check:
            check(page)
        if 'id="result"' in page:
            return page
        moves = MOVES.search(page).group(1)
        words = clickable_words(page)
        if words:
            form = {"moves": moves, "card": words[0]}
        elif 'id="pass"' in page:
            form = {"moves": moves, "card": "pass"}
        else:  # a clue: the person's clues are checked like any other
            form = {"moves": moves, "text": "zebra 1"}
        response = client.post(f"/games/{game_id}/move", data=form, follow_redirects=False)
        if response.status_code == 400 and "text" in form:  # e.g. zebra given already
            form["text"] = f"quartz{moves} 1"
            response = client.post(f"/games/{game_id}/move", data=form, follow_redirects=False)
        assert response.status_code == 303, response.text
    raise AssertionError("the game did not end")


def test_the_front_page_offers_every_variant_and_seat(client):
    from codebots.variants import list_variants

    page = client.get("/").text
    for variant in list_variants():
        assert f'value="{variant.id}"' in page
    for role in ("guesser", "spymaster", "team"):
        assert f'value="{role}"' in page
    assert "http://" not in page and "https://" not in page  # nothing from the network


@pytest.mark.slow
def test_a_single_team_game_as_the_guesser_ends_and_its_record_replays(client, tmp_path):
    game_id = start(client)
    page = play_to_end(client, game_id, check=lambda page: _no_key(page))
    assert "You won" in page or "You lost" in page
    record = tmp_path / "records" / f"web-{game_id}.jsonl"
    session = Session.load(record)  # what codebots play --resume reads, every move checked
    assert session.done and session.result_text() in page


def _no_key(page: str) -> None:
    if 'id="result"' in page:  # the end: the whole key is shown
        return
    assert identities_shown(page) == {}, "a guesser's page shows the key of a card in play"


@pytest.mark.slow
@pytest.mark.parametrize("role", ["guesser", "spymaster", "team"])
def test_no_page_shows_a_guesser_the_key(client, role):
    game_id = start(client, variant="classic", role=role, seed="5")
    session = client.app.state.games.get(game_id).session

    def check(page: str) -> None:
        shown = identities_shown(page)
        move = session.human_move()
        if 'id="result"' in page:
            return
        if role == "spymaster" or (role == "team" and move in ("clue", "cover")):
            assert len(shown) == 25 - int(session.state.covered[0].sum())
        else:
            assert shown == {}, f"{role}, {move}: the page shows {shown}"
            assert "targets" not in page
        for path in ("/games/nope", f"/games/{game_id}x", f"/games/{game_id}/replay"):
            response = client.get(path)  # every other page of the game: no board at all
            assert response.status_code in (404, 409) and not CARD.search(response.text)

    play_to_end(client, game_id, check)


@pytest.mark.slow
def test_a_duet_page_shows_only_player_zeros_side_until_the_end(client):
    game_id = start(client, variant="duet", seed="11")
    session = client.app.state.games.get(game_id).session
    from codebots.render import DUET_NAMES

    def check(page: str) -> None:
        if 'id="result"' in page:
            assert "The AI&#39;s side of the key" in page or "The AI's side of the key" in page
            return
        assert "side of the key" not in page
        for square, identity in identities_shown(page).items():
            index = "ABCDE".index(square[0]) * 5 + int(square[1]) - 1
            code = int(session.state.key[0, 0, index])
            assert identity == DUET_NAMES[code], (square, identity, code)

    page = play_to_end(client, game_id, check)
    assert re.search(r"You (won|lost)", page)


def test_bad_input_is_a_4xx_page_with_one_line(client):
    response = client.post("/games", data={"variant": "nonesuch", "seed": "1", **AI})
    assert response.status_code == 400 and "nonesuch" in response.text
    response = client.post("/games", data={"variant": "classic", "seed": "x1", **AI})
    assert response.status_code == 400 and "seed" in response.text
    form = {"variant": "classic", "seed": "1", "spymaster": "nobody", "guesser": "glove"}
    response = client.post("/games", data=form)
    assert response.status_code == 400 and "nobody" in response.text
    form["spymaster"] = "crossplay[min_zipf=2]"  # the front page's own hint, mistyped
    response = client.post("/games", data=form)
    assert response.status_code == 400 and "min_zipf=2 must be a number from 3.0" in response.text
    assert client.get("/games/AAAAAAAAAAAAAAAA").status_code == 404
    assert client.get("/games/../../etc").status_code == 404
    response = client.post("/games/AAAAAAAAAAAAAAAA/move", data={"moves": "0", "text": "x"})
    assert response.status_code == 404
    game_id = start(client)
    page = client.get(f"/games/{game_id}").text
    moves = MOVES.search(page).group(1)
    response = client.post(f"/games/{game_id}/move", data={"moves": moves, "text": "zzzz"})
    assert response.status_code == 400 and 'role="alert"' in response.text
    assert identities_shown(response.text) == {}  # a guesser's page, re-shown: no key
    word = clickable_words(page)[0]
    first = client.post(f"/games/{game_id}/move", data={"moves": moves, "card": word})
    assert first.status_code == 200  # redirected to the table
    again = client.post(f"/games/{game_id}/move", data={"moves": moves, "card": word})
    assert again.status_code == 409 and "out of date" in again.text  # a double submit
    response = client.post(f"/games/{game_id}/move", data={"text": "x"})
    assert response.status_code == 400 and "moves" in response.text
    assert "Traceback" not in response.text


@pytest.mark.slow
def test_a_restarted_server_resumes_the_game_and_the_terminal_too(tmp_path):
    records = tmp_path / "records"
    first = TestClient(create_app(records))
    game_id = start(first)
    for _ in range(2):
        page = first.get(f"/games/{game_id}").text
        form = {"moves": MOVES.search(page).group(1), "card": clickable_words(page)[0]}
        first.post(f"/games/{game_id}/move", data=form)
    before = first.get(f"/games/{game_id}").text
    second = TestClient(create_app(records))  # a new server on the same records
    after = second.get(f"/games/{game_id}").text
    assert cards_on(after) == cards_on(before)
    assert MOVES.search(after).group(1) == MOVES.search(before).group(1)
    record = records / f"web-{game_id}.jsonl"
    terminal = subprocess.run(
        [sys.executable, "-m", "codebots", "play", "--resume", str(record)],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    moves = int(MOVES.search(after).group(1))
    assert f"{moves} moves replayed" in terminal.stdout, terminal.stdout + terminal.stderr
    play_to_end(second, game_id)


@pytest.mark.slow
def test_twenty_games_at_once_keep_to_themselves(client, tmp_path):
    ids = [start(client, seed=str(seed)) for seed in range(20)]
    errors: list[BaseException] = []

    def play(game_id: str) -> None:
        try:
            play_to_end(client, game_id)
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=play, args=(game_id,)) for game_id in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors[0]
    for seed, game_id in enumerate(ids):
        session = Session.load(tmp_path / "records" / f"web-{game_id}.jsonl")
        assert session.done and session.seed == seed
        assert session.game_id == game_id


def test_serve_refuses_an_address_it_cannot_listen_on_in_one_line():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "codebots", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 1
    assert result.stderr.strip().count("\n") == 0 and f"cannot listen on 127.0.0.1:{port}" in (
        result.stderr
    )


def test_campaign_pages_refuse_bad_input_with_4xx(client):
    assert client.post("/campaigns", data={"name": "../x"}).status_code == 400
    page = client.get("/campaigns/log").text
    assert page.count('class="mission is-open"') == 3  # London, Hogwarts, Hogsmeade
    form = {"mission": "nonesuch", **AI}
    response = client.post("/campaigns/log/play", data=form)
    assert response.status_code == 400 and "unknown mission" in response.text
    form = {"mission": "ministry-of-magic", **AI}
    response = client.post("/campaigns/log/play", data=form)
    assert response.status_code == 400
    form = {"mission": "london", "bonuses": "double_clues", **AI}
    response = client.post("/campaigns/log/play", data=form)
    assert response.status_code == 400 and "not held" in response.text


def test_an_uploaded_card_list_is_the_pool_and_a_bad_one_is_refused(client):
    from codebots.vocab import load_pool

    words = load_pool("wizarding").words[:30]
    upload = {"pool_file": ("cards.txt", "\n".join(words).encode(), "text/plain")}
    form = {"variant": "classic", "seed": "2", **AI}
    response = client.post("/games", data=form, files=upload, follow_redirects=False)
    assert response.status_code == 303, response.text
    session = client.app.state.games.get(response.headers["location"].rsplit("/", 1)[1]).session
    assert set(session.words) == set(words)
    short = {"pool_file": ("few.txt", b"alpha\nbeta\ngamma\n", "text/plain")}
    response = client.post("/games", data=form, files=short)
    assert response.status_code == 400 and "25" in response.text
    assert "Traceback" not in response.text
    response = client.post(
        "/games", data={**form, "options": "three_players"}, follow_redirects=False
    )
    assert response.status_code == 303
    response = client.post("/games", data={**form, "options": "no_such_option"})
    assert response.status_code == 400 and "no_such_option" in response.text


@pytest.mark.slow
def test_a_finished_game_replays_step_by_step_and_an_open_one_does_not(client):
    game_id = start(client, seed="9")
    assert client.get(f"/games/{game_id}/replay").status_code == 409  # its key is hidden
    play_to_end(client, game_id)
    total = len(client.app.state.games.get(game_id).session.events)
    first = client.get(f"/games/{game_id}/replay?step=0").text
    assert f"Move 0 of {total}" in first and len(identities_shown(first)) == 25
    previous = cards_on(first)
    for step in range(1, total + 1):
        page = client.get(f"/games/{game_id}/replay?step={step}").text
        assert f"Move {step} of {total}" in page
        covered = [square for square, classes in cards_on(page).items() if "covered" in classes]
        was = [square for square, classes in previous.items() if "covered" in classes]
        assert set(was) <= set(covered)  # a card once covered stays covered
        previous = cards_on(page)
    assert (
        "You won" in client.get(f"/games/{game_id}").text
        or "You lost" in client.get(f"/games/{game_id}").text
    )


def test_a_covered_card_and_a_malformed_clue_are_refused_on_the_page(client):
    game_id = start(client)
    page = client.get(f"/games/{game_id}").text
    word = clickable_words(page)[0]
    client.post(f"/games/{game_id}/move", data={"moves": MOVES.search(page).group(1), "card": word})
    page = client.get(f"/games/{game_id}").text
    if 'id="result"' not in page:
        form = {"moves": MOVES.search(page).group(1), "text": word}
        response = client.post(f"/games/{game_id}/move", data=form)
        assert response.status_code == 400 and "already covered" in response.text
    game_id = start(client, variant="classic", role="spymaster")
    page = client.get(f"/games/{game_id}").text
    form = {"moves": MOVES.search(page).group(1), "text": "two words 3 4"}
    response = client.post(f"/games/{game_id}/move", data=form)
    assert response.status_code == 400 and 'role="alert"' in response.text
    assert identities_shown(response.text)  # the spymaster's page, re-shown with the reason


@pytest.mark.slow
def test_a_terminal_game_continues_in_the_browser(client, tmp_path):
    import pexpect

    record = tmp_path / "terminal.jsonl"
    command = f"{sys.executable} -m codebots play --variant single-team-2019 --seed 4"
    command += f" --spymaster glove --guesser glove --save {record}"
    child = pexpect.spawn(command, timeout=120, encoding="utf-8")
    child.expect("your guess> ")
    child.sendline("A1")
    child.expect("your guess> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    text = record.read_text()
    files = {"record": ("terminal.jsonl", text.encode(), "application/jsonl")}
    response = client.post("/games/open", files=files, follow_redirects=False)
    assert response.status_code == 303, response.text
    game_id = response.headers["location"].rsplit("/", 1)[1]
    page = client.get(f"/games/{game_id}").text
    assert MOVES.search(page).group(1) == str(len(Session.load(record).events))
    assert 'class="card covered' in page  # the card touched at the terminal
    again = client.post("/games/open", files=files, follow_redirects=False)
    assert again.status_code == 303  # the same record again: the same game
    play_to_end(client, game_id)
    changed = {"record": ("other.jsonl", (text + "garbage\n").encode(), "application/jsonl")}
    response = client.post("/games/open", files=changed)
    assert response.status_code == 400 and "Traceback" not in response.text


def _options(page: str, select_id: str) -> list[str]:
    found = re.search(rf'<select name="\w+" id="{select_id}">(.*?)</select>', page, re.S)
    return re.findall(r'<option value="([^"]+)"', found.group(1)) if found else []


@pytest.mark.slow
def test_the_bonus_buttons_touch_two_cards_and_mark_a_bystander(client, tmp_path):
    game_id = start(client, variant="mission/hogwarts", seed="21")
    for _ in range(60):  # to the person's first guess with the bonus in hand
        page = client.get(f"/games/{game_id}").text
        if 'id="touch-two"' in page or 'id="result"' in page:
            break
        moves = MOVES.search(page).group(1)
        form = {"moves": moves, "card": "pass"} if 'id="pass"' in page else None
        form = form or {"moves": moves, "text": f"quartz{moves} 1"}
        client.post(f"/games/{game_id}/move", data=form)
    squares = _options(page, "first")
    form = {"moves": MOVES.search(page).group(1), "first": squares[0], "second": squares[1]}
    assert (
        client.post(f"/games/{game_id}/move", data=form, follow_redirects=False).status_code == 303
    )
    events = Session.load(tmp_path / "records" / f"web-{game_id}.jsonl").events
    touched = [event for event in events if event["type"] == "guess" and "second" in event]
    assert touched and touched[0]["by"] == "human"

    game_id = start(client, variant="mission/hogsmeade", seed="22")
    for _ in range(60):
        page = client.get(f"/games/{game_id}").text
        if 'id="mark-form"' in page and _options(page, "mark"):
            break
        moves = MOVES.search(page).group(1)
        words = clickable_words(page)
        form = {"moves": moves, "card": words[0]} if words else {"moves": moves, "card": "pass"}
        client.post(f"/games/{game_id}/move", data=form)
    square = _options(page, "mark")[0]
    page = client.post(
        f"/games/{game_id}/move", data={"moves": MOVES.search(page).group(1), "mark": square}
    ).text
    assert 'id="pending-mark"' in page
    form = {"moves": MOVES.search(page).group(1), "text": "quartz 1"}
    assert (
        client.post(f"/games/{game_id}/move", data=form, follow_redirects=False).status_code == 303
    )
    events = Session.load(tmp_path / "records" / f"web-{game_id}.jsonl").events
    assert any(event["type"] == "clue" and event.get("mark", -1) >= 0 for event in events)
