"""Filters: parsed and type-checked against a schema with the Java ``FilterParser``'s messages,
lines and columns, and evaluated exactly (``FilterEvaluator``).

A filter is kept as a tree of tuples:
``("const", bool)``, ``("and", [f…])``, ``("or", [f…])``, ``("not", f)``,
``("int", position, op, value)``, ``("range", position, low, high)``,
``("str", position, op, value)`` and ``("agg", function, position, op, threshold, window_ns)``.
"""

from __future__ import annotations

from .errors import FilterError
from .filter_lexer import Lexer, error_at, to_utf16_units
from .schema import IntAttribute, Schema
from .topics import filter_problem, has_wildcard

MAX_BYTES = 64 * 1024
MAX_DEPTH = 200
_COMPARISONS = {"LT": "<", "LE": "<=", "GT": ">", "GE": ">=", "EQ": "==", "NE": "!="}
_STRING_OPS = {"EQ": "==", "NE": "!=", "PREFIX": "prefix", "SUFFIX": "suffix",
               "CONTAINS": "contains", "MATCHES": "matches"}
STATEFUL = "stateful aggregates are evaluated by the compiler targets"


def _suggest(wrong: str, known: list[str]) -> str | None:
    """NameSuggester.closest: optimal-string-alignment distance, case ignored."""
    best, best_distance = None, 1 << 31
    w = wrong.lower()
    for k in known:
        d = _distance(w, k.lower())
        if d < best_distance:
            best, best_distance = k, d
    return best if best_distance <= min(2, len(wrong) // 3) else None


def _distance(a: str, b: str) -> int:
    if abs(len(a) - len(b)) > 2:
        return abs(len(a) - len(b))
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


class _Parser:
    """Recursive descent over the grammar of docs/content-model.md; atoms are typed when read."""

    def __init__(self, schema: Schema, text: str):
        self.schema = schema
        self.text = text
        self.lexer = Lexer(text)
        self.current = None
        self.depth = 0

    def error(self, token, reason: str) -> FilterError:
        return error_at(self.text, token.offset, reason)

    def advance(self):
        self.current = self.lexer.next()

    def expect(self, kind: str, shown: str):
        if self.current.kind != kind:
            raise self.error(self.current, f"expected {shown} but found {self.current.describe()}")
        self.advance()

    def enter(self):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(self.current, f"filter nests deeper than {MAX_DEPTH} levels")

    def filter(self):
        self.advance()
        if self.current.kind == "EOF":
            raise self.error(self.current, "empty filter")
        f = self.or_()
        if self.current.kind != "EOF":
            raise self.error(self.current, "expected '&&', '||' or the end of the filter but "
                                           f"found {self.current.describe()}")
        return f

    def or_(self):
        operands = [self.and_()]
        while self.current.kind == "OR":
            self.advance()
            operands.append(self.and_())
        return operands[0] if len(operands) == 1 else ("or", operands)

    def and_(self):
        operands = [self.unary()]
        while self.current.kind == "AND":
            self.advance()
            operands.append(self.unary())
        return operands[0] if len(operands) == 1 else ("and", operands)

    def unary(self):
        if self.current.kind != "NOT":
            return self.primary()
        self.enter()
        self.advance()
        operand = self.unary()
        self.depth -= 1
        return ("not", operand)

    def primary(self):
        t = self.current
        if t.kind == "LPAREN":
            self.enter()
            self.advance()
            inner = self.or_()
            self.expect("RPAREN", "')'")
            self.depth -= 1
            return inner
        if t.kind in ("TRUE", "FALSE"):
            self.advance()
            return ("const", t.kind == "TRUE")
        if t.kind in ("COUNT", "SUM", "AVG"):
            return self.aggregate()
        if t.kind == "IDENT":
            return self.constraint()
        raise self.error(t, "expected a constraint, '(', '!', 'true' or 'false' but found "
                            + t.describe())

    # -- typing (ConstraintTyper) --

    def attribute(self, name):
        a = self.schema.attribute(name.text)
        if a is not None:
            return a
        reason = f"unknown attribute '{name.text}'"
        close = _suggest(name.text, [x.name for x in self.schema.attributes])
        raise self.error(name, reason if close is None else f"{reason} (did you mean '{close}'?)")

    def check_operator(self, name, op):
        a = self.attribute(name)
        string_op = op.kind in ("PREFIX", "SUFFIX", "CONTAINS", "MATCHES")
        int_only = op.kind == "IN" or op.kind in ("LT", "LE", "GT", "GE")
        if isinstance(a, IntAttribute) and string_op:
            raise self.error(op, f"{a.name} is an int attribute; '{op.text}' needs a string")
        if not isinstance(a, IntAttribute) and int_only:
            raise self.error(op, f"{a.name} is a string attribute; '{op.text}' needs an int")
        if op.kind == "MATCHES" and (isinstance(a, IntAttribute) or not a.is_topic):
            raise self.error(op, f"{a.name} is not a topic attribute; 'matches' needs a topic")

    def int_constant(self, name, constant) -> int:
        a = self.attribute(name)
        if constant.kind == "INT":
            v = constant.value
            if not a.min <= v <= a.max:
                raise self.error(constant,
                                 f"{v} is outside the domain of {a.name} [{a.min}, {a.max}]")
            return v
        if constant.kind == "STRING":
            raise self.error(constant,
                             f"{a.name} is an int attribute; {constant.describe()} is a string")
        raise self.error(constant, f"{a.name} is an int attribute; expected an integer but "
                                   f"found {constant.describe()}")

    def string_constant(self, a, constant) -> str:
        if constant.kind == "STRING":
            value = constant.value
        elif constant.kind == "IDENT":  # a bare word, as in Camus' `stock == GOOGL`
            value = constant.text
        elif constant.kind in ("INT", "DECIMAL", "DURATION"):
            raise self.error(constant, f"{a.name} is a string attribute; {constant.text} is not "
                                       f'a string (quote it: "{constant.text}")')
        else:
            raise self.error(constant, f"{a.name} is a string attribute; expected a string but "
                                       f"found {constant.describe()}")
        size = len(value.encode("utf-8"))
        if size > a.max_length:
            raise self.error(constant, f"string constant {constant.describe()} is {size} bytes "
                                       f"long; {a.name} holds at most {a.max_length}")
        return value

    def constraint(self):
        name = self.current
        self.attribute(name)
        self.advance()
        op = self.current
        if op.kind in _COMPARISONS or op.kind in _STRING_OPS:
            self.check_operator(name, op)
            self.advance()
            constant = self.current
            a = self.attribute(name)
            if isinstance(a, IntAttribute):
                atom = ("int", a.position, _COMPARISONS[op.kind], self.int_constant(name, constant))
            elif op.kind == "MATCHES":
                value = self.string_constant(a, constant)
                problem = filter_problem(value, a.levels)
                if problem is not None:
                    raise self.error(constant, f"{a.name}: {problem}")
                atom = ("str", a.position, "matches" if has_wildcard(value) else "==", value)
            else:
                atom = ("str", a.position, _STRING_OPS[op.kind], self.string_constant(a, constant))
            self.advance()
            return atom
        if op.kind == "IN":
            self.check_operator(name, op)
            self.advance()
            self.expect("LBRACKET", "'['")
            low = self.current
            lo = self.int_constant(name, low)
            self.advance()
            self.expect("COMMA", "','")
            hi = self.int_constant(name, self.current)
            self.advance()
            self.expect("RBRACKET", "']'")
            if lo > hi:
                raise self.error(low, f"empty range [{lo}, {hi}]: the low bound must not exceed "
                                      "the high bound")
            return ("range", self.attribute(name).position, lo, hi)
        raise self.error(op, "expected an operator (<, <=, >, >=, ==, !=, in, prefix, suffix, "
                             f"contains, matches) after '{name.text}' but found {op.describe()}")

    def aggregate(self):
        function = self.current
        self.advance()
        self.expect("LPAREN", "'('")
        argument = None
        if function.kind != "COUNT":
            argument = self.current
            if argument.kind != "IDENT":
                raise self.error(argument, f"expected an int attribute in {function.text}(...) "
                                           f"but found {argument.describe()}")
            a = self.attribute(argument)
            if not isinstance(a, IntAttribute):
                raise self.error(argument, f"{function.text}(...) needs an int attribute; "
                                           f"{a.name} is a string attribute")
            self.advance()
        self.expect("RPAREN", "')'")
        op = self.current
        if op.kind not in _COMPARISONS:
            raise self.error(op, "expected a comparison (<, <=, >, >=, ==, !=) after "
                                 f"{function.text}(...) but found {op.describe()}")
        self.advance()
        threshold = self.current
        count = function.kind == "COUNT"
        if not (threshold.kind == "INT" or (threshold.kind == "DECIMAL" and not count)):
            what = ("count() is compared with an integer" if count
                    else f"{function.text}(...) is compared with a number")
            raise self.error(threshold, f"{what} but found {threshold.describe()}")
        self.advance()
        if self.current.kind != "OVER":
            raise self.error(self.current, "expected 'over' and a window (e.g. over 100ms) but "
                                           f"found {self.current.describe()}")
        self.advance()
        window = self.current
        if window.kind == "DURATION":
            if isinstance(window.value, str):
                raise self.error(window, window.value)
        else:
            hint = " (a window needs a unit: ns, us, ms, s or m)" if window.kind == "INT" else ""
            raise self.error(window, f"expected a window like 100ms but found "
                                     f"{window.describe()}{hint}")
        self.advance()
        position = None if argument is None else self.attribute(argument).position
        return ("agg", function.kind.lower(), position, _COMPARISONS[op.kind], threshold.text,
                window.value)


def parse_tree(schema: Schema, text: str):
    """The typed tree of ``text``; raises FilterError as Java's FilterParser.parse would."""
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise FilterError(f"filter too long: more than {MAX_BYTES} bytes (64 KiB)")
    return _Parser(schema, to_utf16_units(text)).filter()


def has_aggregates(tree) -> bool:
    kind = tree[0]
    if kind == "agg":
        return True
    if kind in ("and", "or"):
        return any(has_aggregates(t) for t in tree[1])
    return kind == "not" and has_aggregates(tree[1])
