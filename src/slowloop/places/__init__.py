"""The places an agent reads what it learned, outside the home: the registry of installs
(``targets``), the block in an AGENTS.md / CLAUDE.md (``agents_md``) and the skill links in an
agent's skills folder (``skills_export``). Below learning in the layers: a reflection that
applied a change refreshes them, and the client integrations register them."""
