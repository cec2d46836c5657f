from .db import Store, open_store

__all__ = ["Store", "open_store"]
