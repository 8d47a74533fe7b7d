"""``codebots serve``: a local web table where a person plays any variant with the AI, on the
same engine, agents and game records as ``codebots play`` (:mod:`codebots.web.app`; the games
in :mod:`codebots.web.games`, what a seat may see in :mod:`codebots.web.board`).

Needs the ``web`` extra: ``pip install 'codebots[web]'``.
"""
