"""Sinclair BASIC listings as text: zmakebas-style escapes and keyword tokens.

A listing is plain text, one numbered line per text line, keywords in capitals. Escapes:
``\\a``–``\\u`` the UDGs (144–164); ``\\`` and two of `` .':`` a block graphic (left half, then
right half: ``'`` top, ``.`` bottom, ``:`` both, space neither); ``\\{n}`` character code n;
``\\*`` the copyright sign; ``\\\\`` a backslash.
"""

import re
from collections.abc import Iterator

from .numbers import parse_number
from .rom import FIRST_TOKEN, KEYWORDS, TOKEN_BIN, TOKEN_DATA, TOKEN_REM

UDG_A = 144
COPYRIGHT = 127
BLOCK_GRAPHICS = 128
_QUADRANTS = {" ": 0, "'": 1, ".": 2, ":": 3}  # top, bottom bits of one half

# By the first character of the spelling, longest spelling first, so that "INPUT" wins over "IN"
# and "GO SUB" over "GO" (and a character no keyword starts with costs one look-up)
_BY_FIRST_CHARACTER: dict[str, list[int]] = {}
for _index in sorted(range(len(KEYWORDS)), key=lambda i: -len(KEYWORDS[i].strip())):
    _BY_FIRST_CHARACTER.setdefault(KEYWORDS[_index].strip()[0], []).append(_index)
_LINE_NUMBER = re.compile(r"\s*(\d+)\s?")
_SPELLINGS = frozenset(keyword.strip() for keyword in KEYWORDS)


class ListingError(ValueError):
    """A listing line that cannot be turned into Spectrum codes."""


def block_graphic(left: str, right: str) -> int:
    """The code of the block graphic whose halves are drawn as `left` and `right`."""
    top_left, bottom_left = _halves(left)
    top_right, bottom_right = _halves(right)
    return BLOCK_GRAPHICS + top_right + 2 * top_left + 4 * bottom_right + 8 * bottom_left


def _halves(mark: str) -> tuple[int, int]:
    bits = _QUADRANTS[mark]
    return bits & 1, bits >> 1


def decode_escapes(text: str) -> bytes:
    """Spectrum character codes for text with escapes (no keyword tokenizing)."""
    codes, i = bytearray(), 0
    while i < len(text):
        ch = text[i]
        if ch != "\\":
            codes.append(_plain_code(ch))
            i += 1
            continue
        code, i = _escape(text, i)
        codes.append(code)
    return bytes(codes)


def _plain_code(ch: str) -> int:
    code = ord(ch)
    if not 32 <= code < 127:
        raise ListingError(f"character {ch!r} has no Spectrum code; use an escape")
    return code


def _escape(text: str, i: int) -> tuple[int, int]:
    """Decode the escape starting at text[i] (a backslash); return (code, next index)."""
    rest = text[i + 1 : i + 3]
    if rest[:1] == "\\":
        return ord("\\"), i + 2
    if rest[:1] == "*":
        return COPYRIGHT, i + 2
    if rest[:1] == "{":
        match = re.match(r"\{(\d+)\}", text[i + 1 :])
        if not match or int(match[1]) > 255:
            raise ListingError(f"bad character escape at {text[i : i + 8]!r}")
        return int(match[1]), i + 1 + match.end()
    if len(rest) == 2 and rest[0] in _QUADRANTS and rest[1] in _QUADRANTS:
        return block_graphic(rest[0], rest[1]), i + 3
    if rest[:1] and "a" <= rest[0] <= "u":
        return UDG_A + ord(rest[0]) - ord("a"), i + 2
    raise ListingError(f"unknown escape {text[i : i + 3]!r}")


def tokenize(body: str) -> bytes:
    """One line's text (after its number) as the codes typed in: keywords become tokens.

    Strings and everything after REM are kept as typed; spaces next to a keyword are dropped,
    since the ROM prints the keyword's own spacing.
    """
    out, i, in_string = bytearray(), 0, False
    while i < len(body):
        ch = body[i]
        if in_string or ch == "\\":
            code, i = _escape(body, i) if ch == "\\" else (_plain_code(ch), i + 1)
            out.append(code)
            in_string = in_string != (ch == '"')
            continue
        if ch == '"':
            in_string = True
            out.append(ord(ch))
            i += 1
            continue
        token, length = _keyword_at(body, i)
        if token is None:
            if not (ch == " " and out and out[-1] >= FIRST_TOKEN):
                out.append(_plain_code(ch))
            i += 1
            continue
        while out and out[-1] == ord(" "):
            out.pop()
        out.append(token)
        i += length
        if token == TOKEN_REM:
            return bytes(out) + decode_escapes(body[i:].lstrip(" "))
    return bytes(out)


def _keyword_at(body: str, i: int) -> tuple[int | None, int]:
    """The token of the keyword spelled at body[i], if any, and the length of its spelling."""
    if i and (body[i - 1].isalnum() or body[i - 1] == "$") and body[i].isalpha():
        return None, 0
    for index in _BY_FIRST_CHARACTER.get(body[i], ()):
        spelling = KEYWORDS[index].strip()
        if not body.startswith(spelling, i):
            continue
        after = body[i + len(spelling) : i + len(spelling) + 1]
        if spelling[-1].isalpha() and (after.isalpha() or after == "$"):
            continue
        return FIRST_TOKEN + index, len(spelling)
    return None, 0


def listing_text(data: bytes) -> str:
    """The text of a listing file's bytes (UTF-8, with or without the byte-order mark some editors
    write first); ListingError when they are not text or hold no line."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ListingError("not text") from None
    if not any(line.strip() for line in text.splitlines()):
        raise ListingError("the listing has no lines")
    return text


def starts_as_a_listing(text: str) -> bool:
    """Whether the first line that is not blank begins with a line number, as a listing's lines do
    (so that what is wrong further on is said of a listing, not of text that is none)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return bool(_LINE_NUMBER.match(first))


def lowercase_keyword(body: bytes) -> str | None:
    """The first word of a line's codes, outside strings and before any REM, that is a keyword
    written in small letters (`print`): the ROM takes it for a name, where a keyword was meant."""
    words, in_string = [], False
    word = ""
    for code in body:
        if code == TOKEN_REM:
            break
        if code == ord('"'):
            in_string = not in_string
        if not in_string and ord("a") <= code <= ord("z"):
            word += chr(code)
            continue
        words.append(word)
        word = ""
    words.append(word)
    return next((word for word in words if word.upper() in _SPELLINGS), None)


_RUN_TOGETHER = {keyword.replace(" ", ""): keyword for keyword in _SPELLINGS if " " in keyword}  # GOTO: GO TO


def run_together_keyword(body: bytes) -> tuple[str, str] | None:
    """The first word of a line's codes, outside strings and before any REM, that is a keyword of
    two words written as one (GOTO, gosub, DEFFN), and the keyword: the ROM's are spelled with their
    space (GO TO, GO SUB, DEF FN), and it takes the one word for a name."""
    words, word, in_string = [], "", False
    for code in body:
        if code == TOKEN_REM:
            break
        if code == ord('"'):
            in_string = not in_string
        if not in_string and chr(code).isascii() and chr(code).isalpha():
            word += chr(code)
            continue
        words.append(word)
        word = ""
    words.append(word)
    return next(((word, _RUN_TOGETHER[word.upper()]) for word in words if word.upper() in _RUN_TOGETHER), None)


def parse_listing(text: str) -> list[tuple[int, bytes]]:
    """(line number, tokenized body) for each non-blank line of a listing, in the given order."""
    return list(listing_lines(text))


def listing_lines(text: str) -> Iterator[tuple[int, bytes]]:
    """The lines of `parse_listing` one at a time, each read only when it is asked for."""
    for row, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        match = _LINE_NUMBER.match(line)
        if not match or not 1 <= int(match[1]) <= 9999:
            raise ListingError(f"listing line {row}: no line number 1-9999: {line[:40]!r}")
        try:
            yield int(match[1]), tokenize(line[match.end() :])
        except ListingError as error:
            raise ListingError(f"listing line {row} ({match[1]}): {error}") from None


def data_values(listing: str, from_line: int | None = None) -> list[float]:
    """The numbers of a listing's DATA statements in program order, from line `from_line` on, as
    RESTORE and READ take them: literals as the ROM stores them, BIN numbers, a minus sign."""
    values = []
    for number, body in sorted(parse_listing(listing), key=lambda line: line[0]):
        if from_line is not None and number < from_line:
            continue
        for statement in _split_outside_strings(body, ord(":")):
            statement = statement.lstrip(b" ")
            if statement[:1] == bytes([TOKEN_REM]):
                break
            if statement[:1] == bytes([TOKEN_DATA]):
                values += [_data_number(item, number) for item in _split_outside_strings(statement[1:], ord(","))]
    return values


def _split_outside_strings(codes: bytes, separator: int) -> list[bytes]:
    """`codes` cut at each `separator` that is not inside a string literal."""
    parts, current, quoted = [], bytearray(), False
    for code in codes:
        if code == ord('"'):
            quoted = not quoted
        if code == separator and not quoted:
            parts.append(bytes(current))
            current = bytearray()
        else:
            current.append(code)
    parts.append(bytes(current))
    return parts


def _data_number(item: bytes, line: int) -> float:
    """One DATA item: a number literal, possibly negative, or BIN with binary digits."""
    text = item.strip(b" ")
    negative = text.startswith(b"-")
    if negative:
        text = text[1:].strip(b" ")
    try:
        if text[:1] == bytes([TOKEN_BIN]):
            digits = text[1:].decode("ascii").strip()
            if digits.strip("01"):
                raise ValueError
            value = float(int(digits or "0", 2))
        else:
            value = parse_number(text.decode("ascii"))
    except (ValueError, UnicodeDecodeError, IndexError):
        raise ListingError(f"line {line}: DATA item {item.decode('latin-1')!r} is not a number") from None
    return -value if negative else value
