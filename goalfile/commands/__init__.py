"""One module per command. Each takes keyword arguments and a :class:`Context`, returns a frozen
result, and raises :class:`~goalfile.errors.GoalfileError` for anything a user can cause. None of
them prints: the CLI renders results and errors."""
