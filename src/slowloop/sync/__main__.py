"""``python -m slowloop.sync merge-driver BASE OURS THEIRS PATH``: the git merge driver."""

from .merge import main

main()
