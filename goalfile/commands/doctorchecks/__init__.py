"""The checks of `goalfile doctor`, one to a module; :mod:`goalfile.commands.doctor` runs them.

* :mod:`.finding`: a finding, its health and fix, and the result (pure);
* :mod:`.settingsfiles`: the host settings files read, and how each is named and edited;
* :mod:`.registration`: ``goalfile hook stop`` registered in each host's hook file, on PATH;
* :mod:`.codextrust`: the Codex hook trusted;
* :mod:`.shape`: each Stop hook in the shape that hands its answer to the host (``--fix-hooks``);
* :mod:`.otherstop`: no other hook lets the agent stop (``--remove-other-stop-hooks``);
* :mod:`.hookenv`: no variable of a host's settings changes which goalfile runs or how;
* :mod:`.timeouts`: each host gives the hook its time (``--fix-timeouts``);
* :mod:`.pi`: pi's extension; :mod:`.skills`: the skills installed.

The MCP server's registration is checked by :mod:`goalfile.commands.doctormcp`.
"""
