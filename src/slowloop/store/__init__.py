from .db import Store
from .factory import open_store

__all__ = ["Store", "open_store"]
