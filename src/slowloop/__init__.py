"""slowloop: a slow learning loop for AI agents. The public API is re-exported here."""

__version__ = "0.1.0"

__all__ = ["__version__"]
