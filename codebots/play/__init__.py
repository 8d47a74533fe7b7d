"""One game between a person and the AI (:mod:`codebots.play.session`), with the Duet
choices of the players (:mod:`codebots.play.duet_choices`) and the explanations of its moves
(:mod:`codebots.play.explain`)."""

from codebots.play.duet_choices import InputProblem
from codebots.play.session import DEFAULT_AI, PHASE_MOVES, ROLES, Session, new_seed

__all__ = ["DEFAULT_AI", "PHASE_MOVES", "ROLES", "InputProblem", "Session", "new_seed"]
