"""MQTT topic names and filters for ``type: topic`` attributes, exactly as nps-content's ``Topics``:
a name is 1 to ``levels`` non-empty levels separated by ``/`` without ``+`` or ``#``; a filter's
level is a name's level, ``+`` (one level) or, last only, ``#`` (the rest, none included)."""

from __future__ import annotations


def name_problem(name: str, levels: int) -> str | None:
    """Why ``name`` is not a topic name of at most ``levels`` levels, or None."""
    parts = name.split("/")
    if len(parts) > levels:
        return f"topic '{name}' has {len(parts)} levels, at most {levels}"
    for i, p in enumerate(parts):
        if not p:
            return f"topic '{name}' has an empty level {i + 1}"
        if "+" in p or "#" in p:
            return f"topic '{name}' has a wildcard (+ or #) in level {i + 1}"
    return None


def filter_problem(text: str, levels: int) -> str | None:
    """Why ``text`` is not a topic filter for names of at most ``levels`` levels, or None."""
    parts = text.split("/")
    named = len(parts) - 1 if parts[-1] == "#" else len(parts)
    if named > levels:
        return f"topic filter '{text}' has {named} levels, at most {levels}"
    for i, p in enumerate(parts):
        if not p:
            return f"topic filter '{text}' has an empty level {i + 1}"
        if p == "#" and i < len(parts) - 1:
            return f"topic filter '{text}': '#' must be the last level"
        if p not in ("+", "#") and ("+" in p or "#" in p):
            return f"topic filter '{text}': a wildcard (+ or #) must be a whole level"
    return None


def has_wildcard(text: str) -> bool:
    return "+" in text or "#" in text


def matches(pattern: str, name: str) -> bool:
    """MQTT's match; a wildcard first level matches no name starting with ``$``."""
    if name.startswith("$") and pattern[:1] in ("+", "#"):
        return False
    f = pattern.split("/")
    n = name.split("/")
    for i, level in enumerate(f):
        if level == "#":
            return True
        if i >= len(n) or level != "+" and level != n[i]:
            return False
    return len(f) == len(n)
