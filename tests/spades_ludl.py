"""A small interpreter for the part of turn-base.com's rule language (LudL) that the Spades seed uses.

It runs the seed's own text, so the tests can hold the Python rules against the ruleset itself.
LudL is prefix notation: every operator takes a fixed number of operands, so `PLUS get_value $card 50`
needs no brackets. A statement ends with `;`; a block header (IF, WHILE, DEF, RECEIVE) with `:`.

What the seed leaves to the host, chosen here: variables are local to each DEF call (the seed reads
the same either way); a REJECT undoes every change the message made; a message is its words split
on spaces, matched to a RECEIVE by name and number of arguments; tokens' props are read-only.
"""

import copy
import re

TOKEN = re.compile(r"""\s*(?:(\#[^\n]*)|'([^']*)'|"([^"]*)"|(-?\d+)|([;:])|(\$?[A-Za-z_]\w*))""")


class LudlError(Exception):
    """The rule text does something this interpreter does not know, or fails at run time."""


class Token:
    """A game token (a card): a name and read-only props."""

    __slots__ = ("name", "props")

    def __init__(self, name: str, props: dict):
        self.name = name
        self.props = props

    def __repr__(self):
        return f"Token({self.name!r})"


class Reject(Exception):
    def __init__(self, text):
        super().__init__(text)
        self.text = text


class Accept(Exception):
    pass


class Return(Exception):
    def __init__(self, value):
        super().__init__()
        self.value = value


def tokenize(text: str) -> list[tuple[str, object]]:
    """(kind, value) pairs: 'str', 'num', 'punct', 'word' (a $variable keeps its $)."""
    items, position = [], 0
    while position < len(text):
        match = TOKEN.match(text, position)
        if not match or match.end() == position:
            if text[position:].strip():
                raise LudlError(f"cannot read the rules at: {text[position : position + 30]!r}")
            break
        position = match.end()
        comment, single, double, number, punct, word = match.groups()
        if comment is not None:
            continue
        if single is not None or double is not None:
            items.append(("str", single if single is not None else double))
        elif number is not None:
            items.append(("num", int(number)))
        elif punct is not None:
            items.append(("punct", punct))
        elif word is not None:
            items.append(("word", word))
    return items


def rules_text(seed_text: str) -> str:
    """The rule text of a seed page: from its first DEF or RECEIVE line (the page's title and its
    column of line numbers come before)."""
    match = re.search(r"^(DEF|RECEIVE)\b", seed_text, re.MULTILINE)
    if not match:
        raise LudlError("no DEF or RECEIVE in the text")
    return seed_text[match.start() :]


# Built-in operators: name -> number of operands. Their meaning is in Interpreter._builtin.
ARITY = {
    "ACCEPT": 0,
    "NULL": 0,
    "ROTATE_PLAY_ORDER": 0,
    "INT": 1,
    "STR": 1,
    "NOT": 1,
    "IS_NULL": 1,
    "SIZE": 1,
    "GET_PROP": 1,
    "GET_CONTAINER": 1,
    "GET_TOKEN": 1,
    "SHUFFLE": 1,
    "SORT_TUPLE": 1,
    "REVERSE": 1,
    "DEBUG": 1,
    "RETURN": 1,
    "REJECT": 1,
    "ASSIGN": 2,
    "PLUS": 2,
    "EQUAL": 2,
    "LESS": 2,
    "GREATER_OR_EQUAL": 2,
    "AND": 2,
    "OR": 2,
    "CONCAT": 2,
    "TOKEN_GET_PROP": 2,
    "SET_PROP": 2,
    "POP": 2,
    "POP_BY_NAME": 2,
    "APPEND": 2,
    "CONTAINS_BY_NAME": 2,
    "GET_BY_POSITION": 2,
    "GET_POSITION_ELT": 2,
    "GET_ELT": 2,
    "TUPLE2": 2,
    "MAP": 2,
    "SET_ELT": 3,
}
BLOCK_ENDS = {"IF": "END_IF", "WHILE": "END_WHILE", "DEF": "END_DEF", "RECEIVE": "END_RECEIVE"}


class Parser:
    """Rule text to a program: DEFs (name -> params, body) and RECEIVEs (name -> params, body).

    Expressions are tuples: ('lit', value), ('var', name), ('op', NAME, args), ('call', name, args).
    Statements: ('expr', e), ('if', cond, body), ('while', cond, body).
    """

    def __init__(self, text: str):
        self.items = tokenize(text)
        self.position = 0
        self.arity = self._def_arities()

    def _def_arities(self) -> dict[str, int]:
        arities = {}
        for index, (kind, value) in enumerate(self.items):
            if (kind, value) == ("word", "DEF"):
                name = self.items[index + 1][1]
                params = 0
                while self.items[index + 2 + params][0] == "word":
                    params += 1
                arities[name] = params
        return arities

    def program(self):
        defs, receives = {}, {}
        while self.position < len(self.items):
            keyword = self._word()
            if keyword not in ("DEF", "RECEIVE"):
                raise LudlError(f"expected DEF or RECEIVE, found {keyword}")
            name = self._word()
            params = []
            while self._peek() != ("punct", ":"):
                params.append(self._word().lstrip("$"))
            self._expect(":")
            body = self._block(BLOCK_ENDS[keyword])
            (defs if keyword == "DEF" else receives)[name] = (params, body)
        return defs, receives

    def _block(self, end: str) -> list:
        body = []
        while self._peek() != ("word", end):
            if self._peek() is None:
                raise LudlError(f"missing {end}")
            kind, value = self._peek()
            if kind == "word" and value in ("IF", "WHILE"):
                self.position += 1
                condition = self.expression()
                self._expect(":")
                body.append((value.lower(), condition, self._block(BLOCK_ENDS[value])))
            else:
                body.append(("expr", self.expression()))
                self._expect(";")
        self.position += 1
        return body

    def expression(self):
        kind, value = self._next()
        if kind in ("str", "num"):
            return ("lit", value)
        if kind != "word":
            raise LudlError(f"unexpected {value!r}")
        if value.startswith("$"):
            return ("var", value[1:])
        if value in ARITY:
            return ("op", value, [self.expression() for _ in range(ARITY[value])])
        if value in self.arity:
            return ("call", value, [self.expression() for _ in range(self.arity[value])])
        raise LudlError(f"unknown word {value}")

    def _peek(self):
        return self.items[self.position] if self.position < len(self.items) else None

    def _next(self):
        item = self._peek()
        if item is None:
            raise LudlError("the rules end in the middle of a statement")
        self.position += 1
        return item

    def _word(self) -> str:
        kind, value = self._next()
        if kind != "word":
            raise LudlError(f"expected a name, found {value!r}")
        return value

    def _expect(self, punct: str) -> None:
        if self._next() != ("punct", punct):
            raise LudlError(f"expected {punct!r}")


class Interpreter:
    """A game run by rule text: props, containers of tokens, and the text's DEFs and RECEIVEs.

    `shuffle(list)` is the host's SHUFFLE (in place): the caller decides how the deck is shuffled.
    """

    def __init__(self, text: str, *, props: dict, containers: dict, shuffle):
        self.defs, self.receives = Parser(text).program()
        self.props = props
        self.containers = containers
        self.tokens = {token.name: token for items in containers.values() for token in items}
        self.shuffle = shuffle
        self.debug: list = []

    def call(self, name: str, *args):
        """Run DEF `name` with `args`; its RETURN value (None if it returns nothing)."""
        params, body = self.defs[name]
        if len(args) != len(params):
            raise LudlError(f"{name} takes {len(params)} arguments")
        try:
            self._run(body, dict(zip(params, args)))
        except Return as result:
            return result.value
        return None

    def receive(self, player: str, message: str) -> tuple[bool, str | None]:
        """Deliver a message from `player`: (True, None) on ACCEPT, (False, text) on REJECT."""
        words = message.split()
        handler = self.receives.get(words[0]) if words else None
        if handler is None or len(handler[0]) != len(words) - 1:
            return False, f"unknown message: {message}"
        params, body = handler
        saved = copy.deepcopy(self.props), {name: list(items) for name, items in self.containers.items()}
        self.debug = []
        scope = dict(zip(params, words[1:]), PLAYER_NAME=player)
        try:
            self._run(body, scope)
        except Accept:
            return True, None
        except Reject as refusal:
            self.props, self.containers = saved
            return False, refusal.text
        raise LudlError(f"RECEIVE {words[0]} ended without ACCEPT or REJECT")

    def _run(self, body: list, scope: dict) -> None:
        for statement in body:
            kind = statement[0]
            if kind == "expr":
                self._eval(statement[1], scope)
            elif kind == "if":
                if self._eval(statement[1], scope):
                    self._run(statement[2], scope)
            else:
                while self._eval(statement[1], scope):
                    self._run(statement[2], scope)

    def _eval(self, expression, scope: dict):
        kind = expression[0]
        if kind == "lit":
            return expression[1]
        if kind == "var":
            if expression[1] not in scope:
                raise LudlError(f"${expression[1]} has no value")
            return scope[expression[1]]
        if kind == "call":
            return self.call(expression[1], *(self._eval(arg, scope) for arg in expression[2]))
        name, operands = expression[1], expression[2]
        if name in ("AND", "OR"):  # both operands are evaluated: neither has effects in the seed
            left, right = (self._eval(operand, scope) for operand in operands)
            return (left and right) if name == "AND" else (left or right)
        return self._builtin(name, [self._eval(operand, scope) for operand in operands], scope)

    def _container(self, name: str) -> list:
        if name not in self.containers:
            raise LudlError(f"no container {name}")
        return self.containers[name]

    def _builtin(self, name: str, args: list, scope: dict):
        match name:
            case "ACCEPT":
                raise Accept()
            case "REJECT":
                raise Reject(args[0])
            case "RETURN":
                raise Return(args[0])
            case "ASSIGN":
                scope[args[0]] = args[1]
            case "NULL":
                return None
            case "DEBUG":
                self.debug.append(copy.deepcopy(args[0]))
            case "INT":
                return int(args[0])
            case "STR":
                return str(args[0])
            case "NOT":
                return not args[0]
            case "IS_NULL":
                return args[0] is None
            case "EQUAL":
                return args[0] == args[1]
            case "LESS":
                return args[0] < args[1]
            case "GREATER_OR_EQUAL":
                return args[0] >= args[1]
            case "PLUS":
                return args[0] + args[1]
            case "CONCAT":
                return f"{args[0]}{args[1]}"
            case "TUPLE2":
                return (args[0], args[1])
            case "GET_PROP":
                return self.props[args[0]]
            case "SET_PROP":
                self.props[args[0]] = args[1]
            case "GET_ELT":
                return args[0][args[1]]
            case "SET_ELT":
                args[0][args[1]] = args[2]
            case "GET_POSITION_ELT" | "GET_BY_POSITION":
                return args[0][args[1]]
            case "SIZE":
                return len(args[0])
            case "GET_CONTAINER":
                return self._container(args[0])
            case "GET_TOKEN":
                return self.tokens[args[0]]
            case "TOKEN_GET_PROP":
                return args[0].props[args[1]]
            case "CONTAINS_BY_NAME":
                return any(token.name == args[1] for token in args[0])
            case "POP":
                return args[0].pop(args[1])
            case "POP_BY_NAME":
                for index, token in enumerate(args[0]):
                    if token.name == args[1]:
                        return args[0].pop(index)
                return None
            case "APPEND":
                args[0].append(args[1])
            case "SHUFFLE":
                self.shuffle(args[0])
            case "ROTATE_PLAY_ORDER":
                order = self.props["play_order"]
                order.append(order.pop(0))
            case "MAP":
                return [self.call(args[1], item) for item in args[0]]
            case "SORT_TUPLE":  # in place, by each pair's second element (the seed sorts (player, value))
                args[0].sort(key=lambda pair: pair[1])
                return args[0]
            case "REVERSE":  # in place
                args[0].reverse()
                return args[0]
            case _:
                raise LudlError(f"no operator {name}")
        return None
