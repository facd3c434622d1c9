"""verigym as an OpenEnv environment: a typed client for `verigym serve`."""

from .client import VerigymEnv
from .models import VerigymAction, VerigymObservation, VerigymState

__all__ = ["VerigymAction", "VerigymEnv", "VerigymObservation", "VerigymState"]
