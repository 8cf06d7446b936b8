"""The documents installed with the package (package data), for the commands that print
them (``cascadia rules --full``, ``cascadia stats --explain``, ``stats NAME --explain``,
``cascadia position --explain``, ``cascadia score --explain``) and the server's
``/rules.md``."""

from __future__ import annotations

from importlib.resources import files

DOCUMENTS = {
    "rules": ("cascadia.docs", "RULES.md"),
    "scaling": ("cascadia.docs", "SCALING.md"),
    "stats": ("cascadia.analytics", "STATS.md"),
    "schema": ("cascadia.analytics", "SCHEMA.md"),
    "format": ("cascadia.replays", "FORMAT.md"),
    "position": ("cascadia.docs", "POSITION.md"),
    "board": ("cascadia.docs", "BOARD.md"),
}
"""Each document by name: the package that ships it and its file name."""


def document(name: str) -> str:
    """The text of the shipped document ``name`` (a key of :data:`DOCUMENTS`)."""
    package, filename = DOCUMENTS[name]
    return (files(package) / filename).read_text(encoding="utf-8")


def sections(text: str, level: int = 2) -> list[tuple[str, str]]:
    """``(heading, text)`` of each section of Markdown ``text`` at ``level`` (``##``),
    the heading line included in the text; what comes before the first heading is left
    out."""
    marker = "#" * level + " "
    found: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith(marker):
            found.append((line[len(marker) :].strip(), [line]))
        elif found:
            found[-1][1].append(line)
    return [(heading, "\n".join(lines).strip() + "\n") for heading, lines in found]


def section(text: str, contains: str) -> str:
    """The first ``##`` section of ``text`` whose heading contains ``contains``."""
    for heading, body in sections(text):
        if contains in heading:
            return body
    raise KeyError(contains)
