"""Typed exceptions: bad filters (as the Java parser reports them), bad bytes, controller refusals."""

from __future__ import annotations

import json


class NetpubsubError(Exception):
    """The base of every error this package raises on purpose."""


class InvalidInputError(NetpubsubError, ValueError):
    """Bad input from a user (a filter, an event, a schema): the reason and, where known, where.

    ``str(e)`` is Java's ``InvalidInputException.getMessage()``: ``line L, column C: reason``.
    Columns count UTF-16 code units, as Java's do.
    """

    def __init__(self, reason: str, line: int | None = None, column: int | None = None,
                 source: str | None = None):
        self.reason = reason
        self.line = line
        self.column = column
        self.source = source
        super().__init__(reason if line is None else f"line {line}, column {column}: {reason}")

    def render(self) -> str:
        """The message, then the offending line and a caret under the column."""
        message = str(self)
        if self.line is None or self.source is None:
            return message
        lines = self.source.split("\n")
        if self.line > len(lines):
            return message
        text = lines[self.line - 1]
        caret = "".join("\t" if c == "\t" else " " for c in text[: self.column - 1])
        caret += " " * max(0, self.column - 1 - len(text))
        return f"{message}\n  {text}\n  {caret}^"


class FilterError(InvalidInputError):
    """A filter that does not parse or type-check against the schema."""


class SchemaError(InvalidInputError):
    """A schema (or the controller's description of one) that cannot be used."""


class DecodeError(NetpubsubError):
    """Bytes that are not an encoded event: the reason (as Java's ``DecodeException.Reason``)
    and the byte offset of the offending field."""

    def __init__(self, reason: str, offset: int, detail: str):
        self.reason = reason
        self.offset = offset
        self.detail = detail
        super().__init__(f"{reason} at byte {offset}: {detail}")


class ControllerError(NetpubsubError):
    """A request the controller refused (or could not be reached for: status 0).

    ``reason`` is the controller's ``error`` text; ``body`` its whole JSON error object (or None
    when the answer was not JSON).
    """

    UNREACHABLE = 0

    def __init__(self, request: str, status: int, reason: str, body: dict | None = None):
        self.request = request
        self.status = status
        self.reason = reason
        self.body = body
        where = "unreachable" if status == 0 else f"HTTP {status}"
        super().__init__(f"{request}: {where}: {reason}")

    @classmethod
    def from_answer(cls, request: str, status: int, text: str) -> "ControllerError":
        body = None
        text = (text or "").strip()
        try:
            parsed = json.loads(text)
            if isinstance(parsed, dict):
                body = parsed
        except ValueError:
            pass
        if body is not None and body.get("error") is not None:
            reason = str(body["error"])
        elif not text:
            reason = "no reason given"
        else:
            reason = text if len(text) <= 500 else text[:497] + "..."
        return cls(request, status, reason, body)
