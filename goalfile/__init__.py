"""goalfile: goal files whose acceptance checks really run."""

__version__ = "0.1.0"
