"""Filter tokens, as nps-content's ``Lexer``: produced on demand, so that the parser reports the
leftmost error. The text is handled as Java sees it, in UTF-16 code units (a character outside
the Basic Multilingual Plane is two units), so columns and messages are Java's."""

from __future__ import annotations

import unicodedata

from .errors import FilterError

KEYWORDS = {w: w.upper() for w in
            "and or not true false in prefix suffix contains matches over count sum avg".split()}
UNITS = {"ns": 1, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000, "m": 60_000_000_000}
_UNIT_SECONDS_LIMIT = {"m": (2**63 - 1) // 60}  # Duration.of(amount, MINUTES) overflows above
LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1


def to_utf16_units(text: str) -> str:
    """``text`` with every character above U+FFFF split into its surrogate pair."""
    if all(ord(c) < 0x10000 for c in text):
        return text
    out = []
    for c in text:
        o = ord(c)
        if o < 0x10000:
            out.append(c)
        else:
            o -= 0x10000
            out.append(chr(0xD800 + (o >> 10)) + chr(0xDC00 + (o & 0x3FF)))
    return "".join(out)


def from_utf16_units(text: str) -> str:
    """Pairs of surrogates joined back into characters (unpaired ones stay)."""
    if not any(0xD800 <= ord(c) < 0xE000 for c in text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def java_digit(c: str, radix: int) -> int:
    """Character.digit(c, radix): Unicode decimal digits, ASCII and full-width Latin letters."""
    o = ord(c)
    if 0xD800 <= o < 0xE000:
        return -1
    d = unicodedata.decimal(c, -1)
    if d < 0:
        if "a" <= c <= "z" or "A" <= c <= "Z":
            d = ord(c.lower()) - ord("a") + 10
        elif 0xFF21 <= o <= 0xFF3A:
            d = o - 0xFF21 + 10
        elif 0xFF41 <= o <= 0xFF5A:
            d = o - 0xFF41 + 10
    return d if 0 <= d < radix else -1


def position(text: str, offset: int) -> tuple[int, int]:
    """(line, column), 1-based, of a 0-based offset in ``text`` (UTF-16 units)."""
    line, line_start = 1, 0
    for i in range(min(offset, len(text))):
        if text[i] == "\n":
            line += 1
            line_start = i + 1
    return line, offset - line_start + 1


def error_at(text: str, offset: int, reason: str) -> FilterError:
    line, column = position(text, offset)
    return FilterError(from_utf16_units(reason), line, column, from_utf16_units(text))


class Token:
    __slots__ = ("kind", "text", "offset", "value")

    def __init__(self, kind: str, text: str, offset: int, value=None):
        self.kind, self.text, self.offset, self.value = kind, text, offset, value

    def describe(self) -> str:
        if self.kind == "EOF":
            return "the end of the filter"
        shown = self.text[:37] + "..." if len(self.text) > 40 else self.text
        return shown if self.kind == "STRING" else f"'{shown}'"


def _is_letter(c: str) -> bool:
    return "a" <= c <= "z" or "A" <= c <= "Z"


def _is_ident_start(c: str) -> bool:
    return _is_letter(c) or c == "_"


def _is_ident_part(c: str) -> bool:
    return _is_ident_start(c) or "0" <= c <= "9"


def _is_digit(c: str) -> bool:
    return "0" <= c <= "9"


_SINGLE = {"(": "LPAREN", ")": "RPAREN", "[": "LBRACKET", "]": "RBRACKET", ",": "COMMA"}


class Lexer:
    def __init__(self, text: str):
        self.text = text  # UTF-16 units
        self.pos = 0

    def next(self) -> Token:
        text = self.text
        n = len(text)
        while self.pos < n and text[self.pos] in " \t\n\r":
            self.pos += 1
        start = self.pos
        if start >= n:
            return Token("EOF", "", start)
        c = text[start]
        if _is_ident_start(c):
            return self._word(start)
        if _is_digit(c) or (c == "-" and start + 1 < n and _is_digit(text[start + 1])):
            return self._number(start)
        if c == '"':
            return self._string(start)
        self.pos += 1
        if c in _SINGLE:
            return self._token(_SINGLE[c], start)
        if c in "&|":
            if not self._follows(c):
                raise error_at(text, start,
                               f"unexpected character '{c}' (did you mean '{c}{c}'?)")
            return self._token("AND" if c == "&" else "OR", start)
        if c == "!":
            return self._token("NE" if self._follows("=") else "NOT", start)
        if c == "=":  # a single '=' is '==', as Camus writes `int.switch_id = 2`
            self._follows("=")
            return self._token("EQ", start)
        if c == "<":
            return self._token("LE" if self._follows("=") else "LT", start)
        if c == ">":
            return self._token("GE" if self._follows("=") else "GT", start)
        shown = f"'{c}'" if 0x20 <= ord(c) < 0x7F else f"U+{ord(c):04X}"
        raise error_at(text, start, f"unexpected character {shown}")

    def _token(self, kind: str, start: int) -> Token:
        return Token(kind, self.text[start:self.pos], start)

    def _follows(self, c: str) -> bool:
        if self.pos < len(self.text) and self.text[self.pos] == c:
            self.pos += 1
            return True
        return False

    def _word(self, start: int) -> Token:
        text, n = self.text, len(self.text)
        while True:
            while self.pos < n and _is_ident_part(text[self.pos]):
                self.pos += 1
            if self.pos + 1 < n and text[self.pos] == "." and _is_ident_start(text[self.pos + 1]):
                self.pos += 1
            else:
                break
        w = text[start:self.pos]
        return Token(KEYWORDS.get(w, "IDENT"), w, start)

    def _number(self, start: int) -> Token:
        text, n = self.text, len(self.text)
        negative = text[self.pos] == "-"
        if negative:
            self.pos += 1
        digits_start = self.pos
        if text.startswith("0x", self.pos) or text.startswith("0X", self.pos):
            self.pos += 2
            hex_start = self.pos
            while self.pos < n and java_digit(text[self.pos], 16) >= 0:
                self.pos += 1
            if self.pos == hex_start:
                raise self._malformed(start)
            magnitude = 0
            for ch in text[hex_start:self.pos]:
                magnitude = magnitude * 16 + java_digit(ch, 16)
            result = self._integer(start, magnitude, negative)
        else:
            self._skip_digits()
            if self.pos + 1 < n and text[self.pos] == "." and _is_digit(text[self.pos + 1]):
                self.pos += 1
                self._skip_digits()
                result = Token("DECIMAL", text[start:self.pos], start)
            elif self.pos < n and _is_letter(text[self.pos]):
                result = self._duration(start, digits_start, negative)
            else:
                result = self._integer(start, int(text[digits_start:self.pos]), negative)
        if self.pos < n and (_is_ident_part(text[self.pos]) or text[self.pos] == "."):
            raise self._malformed(start)
        return result

    def _integer(self, start: int, magnitude: int, negative: bool) -> Token:
        v = -magnitude if negative else magnitude
        if not LONG_MIN <= v <= LONG_MAX:
            raise error_at(self.text, start,
                           f"integer {self.text[start:self.pos]} does not fit in 64 bits")
        return Token("INT", self.text[start:self.pos], start, v)

    def _duration(self, start: int, digits_start: int, negative: bool) -> Token:
        text, n = self.text, len(self.text)
        digits_end = self.pos
        while self.pos < n and _is_letter(text[self.pos]):
            self.pos += 1
        all_text = text[start:self.pos]
        unit = text[digits_end:self.pos]
        amount = int(text[digits_start:digits_end])
        if unit not in UNITS:
            value = f"unknown unit '{unit}' in {all_text} (use ns, us, ms, s or m)"
        elif negative or amount == 0:
            value = f"a window must be positive: {all_text}"
        elif amount > min(LONG_MAX, _UNIT_SECONDS_LIMIT.get(unit, LONG_MAX)):
            value = f"window {all_text} is too long"
        else:
            value = amount * UNITS[unit]  # nanoseconds
        return Token("DURATION", all_text, start, value)

    def _malformed(self, start: int) -> FilterError:
        text, end = self.text, self.pos
        while end < len(text) and (_is_ident_part(text[end]) or text[end] == "."):
            end += 1
        return error_at(text, start, f"malformed number '{text[start:end]}'")

    def _skip_digits(self):
        while self.pos < len(self.text) and _is_digit(self.text[self.pos]):
            self.pos += 1

    def _string(self, start: int) -> Token:
        text, n = self.text, len(self.text)
        out = []
        self.pos += 1
        while True:
            if self.pos >= n or text[self.pos] == "\n":
                raise error_at(text, start, "unterminated string constant")
            c = text[self.pos]
            if c == '"':
                self.pos += 1
                break
            if c != "\\":
                out.append(c)
                self.pos += 1
                continue
            escape = self.pos
            e = text[self.pos + 1] if self.pos + 1 < n else " "
            self.pos += 2
            if e in '"\\':
                out.append(e)
            elif e == "n":
                out.append("\n")
            elif e == "t":
                out.append("\t")
            elif e == "u":
                out.append(self._unicode_escape(escape))
            else:
                low = text[escape + 2] if escape + 2 < n else ""
                if "\ud800" <= e <= "\udbff" and "\udc00" <= low <= "\udfff":
                    # the whole code point, as Java's Character.toString(codePointAt)
                    e = (e + low).encode("utf-16-le", "surrogatepass").decode("utf-16-le")
                raise error_at(text, escape,
                               f"unknown escape '\\{e}' (use \\\" \\\\ \\n \\t \\uXXXX)")
        value = "".join(out)
        self._check_surrogates(value, start)
        return Token("STRING", text[start:self.pos], start, from_utf16_units(value))

    def _unicode_escape(self, escape: int) -> str:
        if self.pos + 4 > len(self.text):
            raise error_at(self.text, escape, "\\u needs four hex digits")
        v = 0
        for i in range(4):
            d = java_digit(self.text[self.pos + i], 16)
            if d < 0:
                raise error_at(self.text, escape, "\\u needs four hex digits")
            v = v * 16 + d
        self.pos += 4
        return chr(v)

    def _check_surrogates(self, value: str, start: int):
        i = 0
        while i < len(value):
            o = ord(value[i])
            if 0xD800 <= o < 0xDC00 and i + 1 < len(value) and 0xDC00 <= ord(value[i + 1]) < 0xE000:
                i += 2
                continue
            if 0xD800 <= o < 0xE000:
                raise error_at(self.text, start,
                               f"string constant has an unpaired surrogate \\u{o:04X}")
            i += 1
