"""The rules of the Stop hook (`goalfile hook stop`), one job to a module.

:mod:`goalfile.commands.hook` wires them together (:func:`goalfile.commands.hook.decide_stop`);
:mod:`goalfile.cli.hook` reads stdin and prints the answer.

Pure (no file system, no git, no clock):

* :mod:`.stopinput`: the host's JSON on stdin and the hook's command line;
* :mod:`.outcome`: an outcome per goal, the decision and its JSON per host, the hold made once;
* :mod:`.reason`: the words of a hold on a goal verify found unmet or blocked;
* :mod:`.statusrules`: a status the ledger does not back, a `draft` typed, a goal ended by a
  new entry, a verify-made block, a `met` newer than git's copy;
* :mod:`.settingsrule`: a `cwd` or `shell` no system call takes;
* :mod:`.verdict`: what a verify run's result asks (block and start the next iteration,
  allow, or hold once).

Reading the file system and git, each deciding one kind of hold:

* :mod:`.places`: the session's folder, its repositories, a goal file's name from there;
* :mod:`.gitview`: what git tracks of the goal files, and the copies HEAD and the index hold;
* :mod:`.discover` and :mod:`.focus`: which goal files are looked at, in which order;
* :mod:`.look`: what one goal file asks before anything runs, applying :mod:`.githolds`
  (hidden, converted, replaced, reached through a link), :mod:`.loadholds` (a file that does
  not load), the pure rules above and :mod:`.approval` (a contract no copy git holds
  approves);
* :mod:`.unheld`: a ``--goal`` naming a goal file git does not hold;
* :mod:`.verifyrun`: running verify (or re-running a `met` goal's checks);
* :mod:`.ledgerhold`: ledgering a hold on a verify-made block once the hook answers with it;
* :mod:`.failures`: an unexpected error, which holds the agent once;
* :mod:`.once`: the holds made once per finding, as the session's record keeps it, also at a
  stop the host marks as continuing.
"""
