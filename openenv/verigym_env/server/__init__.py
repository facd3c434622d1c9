"""The server of verigym's OpenEnv env: `verigym serve` (see app.py)."""
