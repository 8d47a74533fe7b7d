"""A person's mission-log campaign: progress kept in a JSON file between games.

Which missions are won, which are unlocked (the rules of :mod:`codebots.campaign`), the
reward bonuses earned, held and spent. ``codebots play --campaign FILE`` plays the next
mission (or ``--mission``), spends the bonuses asked for with ``--use-bonus`` and records
the result here when the game ends.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from codebots.campaign import BOXES, is_unlocked, mission_variant, next_mission
from codebots.errors import CodebotsError
from codebots.missions import MISSIONS, MISSIONS_BY_SLUG, REWARDS, Mission
from codebots.report import atomic_write_text


def _problem(data: object) -> str | None:
    """What is wrong with a campaign file's content (None: nothing)."""
    if not isinstance(data, dict):
        return "expected a JSON object"
    for key in ("won", "held", "spent", "games"):
        if not isinstance(data.get(key), list):
            return f"'{key}' must be a list"
    kinds = (("won", MISSIONS_BY_SLUG, "mission"), ("held", REWARDS, "bonus"))
    for key, known, kind in (*kinds, ("spent", REWARDS, "bonus")):
        strange = [item for item in data[key] if not isinstance(item, str) or item not in known]
        if strange:
            return f"'{key}' holds {strange[0]!r}, which is not a known {kind}"
    if not all(isinstance(game, dict) for game in data["games"]):
        return "'games' must be a list of objects"
    if not isinstance(data.get("expert", False), bool):
        return "'expert' must be true or false"
    return None


@dataclass
class CampaignProgress:
    path: str
    won: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)  # reward bonuses earned, not yet spent
    spent: list[str] = field(default_factory=list)
    games: list[dict] = field(default_factory=list)  # mission, bonuses, won, record
    expert: bool = False  # the expert option: every mission with one token fewer

    @classmethod
    def load(cls, path: str | Path) -> CampaignProgress:
        """The progress in ``path``, or a new campaign if the file does not exist yet."""
        path = Path(path)
        if path.is_dir():
            raise CodebotsError(f"campaign file {path} is a folder; name a .json file")
        if not path.exists():
            return cls(str(path))
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except UnicodeDecodeError:
            raise CodebotsError(f"{path} is not UTF-8 text, so not a campaign file") from None
        except json.JSONDecodeError as error:
            raise CodebotsError(
                f"{path} is not a codebots campaign file (line {error.lineno}: {error.msg})"
            ) from None
        except OSError as error:
            raise CodebotsError(f"cannot read campaign file {path}: {error.strerror}") from None
        problem = _problem(data)
        if problem:
            raise CodebotsError(f"{path} is not a codebots campaign file: {problem}")
        return cls(
            str(path),
            data["won"],
            data["held"],
            data["spent"],
            data["games"],
            data.get("expert", False),
        )

    def choose_expert(self, expert: bool) -> None:
        """Play this campaign with the expert option (asked for with ``--expert``): set on a
        new campaign (and saved at once), kept by a campaign that has it; a campaign begun
        without it cannot switch half-way."""
        if not expert or self.expert:
            return
        if self.games:
            raise CodebotsError(
                f"{self.path} was begun without the expert option ({len(self.games)} games "
                "played); leave out --expert, or start a new campaign file"
            )
        self.expert = True
        self.save()

    def save(self) -> None:
        data = {k: v for k, v in asdict(self).items() if k != "path"}
        atomic_write_text(self.path, json.dumps(data, indent=1) + "\n")

    def status_lines(self) -> list[str]:
        won = set(self.won)
        lines = []
        for mission in MISSIONS:
            mark = (
                "won"
                if mission.slug in won
                else ("open" if is_unlocked(mission, won) else "locked")
            )
            lines.append(
                f"[{mark:6}] {mission.slug:32} {mission.name} ({mission.tokens}/{mission.mistakes})"
            )
        held = ", ".join(self.held) or "none"
        lines.append(f"bonuses held: {held}")
        if self.expert:
            lines.append("expert option: every mission has one token fewer")
        return lines

    def choose(self, slug: str | None) -> Mission:
        """The mission to play: ``slug`` if it is unlocked, else the next one in order."""
        won = set(self.won)
        if slug is None:
            mission = next_mission(won)
            if mission is None:
                raise CodebotsError("every mission is won: the campaign is complete")
            return mission
        if slug not in MISSIONS_BY_SLUG:
            raise CodebotsError(f"unknown mission '{slug}'; known: {', '.join(MISSIONS_BY_SLUG)}")
        mission = MISSIONS_BY_SLUG[slug]
        if not is_unlocked(mission, won):
            raise CodebotsError(
                f"mission '{slug}' is locked; open missions: "
                + ", ".join(m.slug for m in MISSIONS if is_unlocked(m, won) and m.slug not in won)
            )
        return mission

    def variant_for(self, mission: Mission, use: list[str]) -> str:
        """The variant label of ``mission`` with the held bonuses ``use`` applied."""
        for bonus in use:
            if bonus not in REWARDS:
                raise CodebotsError(f"unknown bonus '{bonus}'; bonuses: {', '.join(REWARDS)}")
            if self.held.count(bonus) < use.count(bonus):
                raise CodebotsError(
                    f"bonus '{bonus}' is not held; held: {', '.join(self.held) or 'none'}"
                )
        return mission_variant(mission, use, self.expert)

    def played(self, slug: str, seed: int) -> bool:
        """Whether mission ``slug`` was already played on board ``seed`` in this campaign."""
        return any(g.get("mission") == slug and g.get("seed") == seed for g in self.games)

    def booked(self, game_id: str) -> bool:
        """Whether the game ``game_id`` is already counted (a resumed game is counted once)."""
        return any(g.get("game_id") == game_id for g in self.games)

    def record(
        self,
        mission: Mission,
        used: list[str],
        won: bool,
        record: str,
        game_id: str | None = None,
        seed: int | None = None,
    ) -> str | None:
        """Book a finished game: bonuses spent, the mission won, a reward for a finished box."""
        for bonus in used:
            if bonus not in self.held:
                raise CodebotsError(
                    f"the bonus '{bonus}' this game used is no longer held in {self.path} "
                    "(spent in another game meanwhile?); the game is not counted"
                )
        for bonus in used:
            self.held.remove(bonus)
            self.spent.append(bonus)
        earned = None
        if won and mission.slug not in self.won:
            self.won.append(mission.slug)
            box = BOXES[mission.box or mission.slug]
            if mission.reward and box[-1] is mission:
                earned = mission.reward
                self.held.append(earned)
        self.games.append(
            {
                "mission": mission.slug,
                "bonuses": used,
                "won": won,
                "record": record,
                "earned": earned,
                "game_id": game_id,
                "seed": seed,
            }
        )
        self.save()
        return earned


def plan_game(
    progress: CampaignProgress, slug: str | None, use: list[str], seed: int, chosen: bool
) -> tuple[Mission, str, dict]:
    """The next game of a campaign: ``(mission, variant label, plan)``, the plan being what
    a game record keeps (``{"path", "mission", "bonuses"}``).

    ``slug`` picks an open mission (None: the next one), ``use`` the held bonuses to spend.
    A seed the person chose (``chosen``) must be new for the mission: a retry on a board
    already played would be played with its key known.
    """
    mission = progress.choose(slug)
    variant = progress.variant_for(mission, use)
    if chosen and progress.played(mission.slug, seed):
        raise CodebotsError(
            f"seed {seed} was already played for {mission.slug} in this campaign; "
            "leave the seed out for a fresh board"
        )
    return mission, variant, {"path": progress.path, "mission": mission.slug, "bonuses": use}


def book_game(session) -> list[str]:
    """Count a finished campaign game (a :class:`codebots.play.Session`) in its campaign,
    once: a resumed, already booked game is not counted again. Returns what to tell the
    person, one line each."""
    plan = session.campaign
    if plan["mission"] not in MISSIONS_BY_SLUG:
        raise CodebotsError(f"the record names an unknown mission '{plan['mission']}'")
    progress = CampaignProgress.load(plan["path"])
    if progress.booked(session.game_id):
        return [f"campaign {plan['path']}: this game was already counted"]
    used = session.used_rewards(plan["bonuses"])
    unused = [bonus for bonus in plan["bonuses"] if bonus not in used]
    lines = [f"not used in this game, still held: {', '.join(unused)}"] if unused else []
    earned = progress.record(
        MISSIONS_BY_SLUG[plan["mission"]],
        used,
        bool(session.state.winner[0] == 0),
        str(session.path),
        game_id=session.game_id,
        seed=session.seed,
    )
    if earned:
        lines.append(f"box finished: you earned the bonus '{earned}'")
    lines.append(f"campaign saved to {plan['path']}: {len(progress.won)} of 24 missions won")
    return lines
