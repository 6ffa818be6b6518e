"""Pointing: a click, tap or drag on the Spectrum's screen turned into the keys a player would type.

A program says what its cells mean at each wait for a key by setting its machine's `targets` to a
`Targets` (or to a function of the machine giving one, read afresh at each frame: a screen the host
reads as the program drew it, as for the genuine ROM). Each `Target` is some character cells (or
none: a choice the front end shows beside the picture), what it is in the program's words, and the
keys a tap on it types. The front ends know no program: they find the target under the pointer
(`Targets.at`), and a `Pointer` turns taps and drags into key presses, which a `Typist` types one at
a time when the program waits for a key, held and let go as the ROM's keyboard scan takes them.
The Spectrum's screen is never touched: outlines are drawn by the front end, outside SCREEN$.

Keys are named as in a headless script (`frontends.headless.presses_from`): 'ENTER', 'a', '7',
'DELETE', 'CAPS+5' for keys held together.

Moves of several taps (two cards that make 11) are the host's until they are whole: a target that
is a `part` is picked by a tap (outlined, nothing typed); once the parts picked make one of
`Targets.moves`, or can no longer become one, their keys are typed in the order tapped and then
`Targets.finish`, so that a move the program refuses is refused in its own words.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .presses import presses_from
from .hardware import ATTRIBUTES_END, CELL_PIXELS, COLUMNS, DISPLAY_FILE, ROWS, cell_address
from .rom import FONT_ADDRESS

HOLD_FRAMES, GAP_FRAMES = 2, 4  # as the headless front end: the ROM's scan takes a key in 2, frees it in 5
MAX_TARGETS = 96  # no screen needs more; a terminal's message stays small


class TargetError(ValueError):
    """A declaration of targets, or a tap, that does not make sense: said in one line."""


def _press_names(keys: Iterable[str]) -> tuple[str, ...]:
    names = tuple(keys)
    if not all(isinstance(name, str) and name for name in names):
        raise TargetError(f"keys are key names, not {names!r}")
    return names


@dataclass(frozen=True)
class Target:
    """Cells `rows` x `cols` from (`row`, `col`) that are `name` (a card "7h", "pile 2", "nil"), and
    the `keys` a tap on them types. `row` None: a choice shown beside the picture, labelled `name`.

    `part`: a tap picks it as part of a move of several taps (see `Targets.moves`); `drag`: the keys
    typed when it is dragged somewhere (its `keys` if None; () when it can't be dragged), and `drop`
    the keys then typed for the target it is dropped on (its `keys` if None); `picked`: the program
    has picked it (Canfield's card to move), and the front end outlines it."""

    name: str
    keys: tuple[str, ...] = ()
    row: int | None = None
    col: int = 0
    rows: int = 1
    cols: int = 1
    part: bool = False
    drag: tuple[str, ...] | None = None
    drop: tuple[str, ...] | None = None
    picked: bool = False

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name or len(self.name) > 40:
            raise TargetError(f"a target is named in 1-40 characters, not {self.name!r}")
        object.__setattr__(self, "keys", _press_names(self.keys))
        for name in ("drag", "drop"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, _press_names(getattr(self, name)))
        if self.row is not None and not (
            0 <= self.row
            and self.rows >= 1
            and self.row + self.rows <= ROWS
            and 0 <= self.col
            and self.cols >= 1
            and self.col + self.cols <= COLUMNS
        ):
            raise TargetError(f"target {self.name!r} is not within the screen's {ROWS} rows and {COLUMNS} columns")

    @property
    def on_screen(self) -> bool:
        return self.row is not None

    def covers(self, row: int, col: int) -> bool:
        return (
            self.row is not None and self.row <= row < self.row + self.rows and self.col <= col < self.col + self.cols
        )

    def as_json(self) -> dict:
        said: dict[str, object] = {"name": self.name, "keys": list(self.keys)}
        if self.row is not None:
            said.update(row=self.row, col=self.col, rows=self.rows, cols=self.cols)
        for name in ("part", "picked"):
            if getattr(self, name):
                said[name] = True
        for name in ("drag", "drop"):
            if getattr(self, name) is not None:
                said[name] = list(getattr(self, name))
        return said


@dataclass(frozen=True)
class Targets:
    """What the cells mean at one wait: the targets (the first that covers a cell is the one there),
    the moves whole parts make (each a set of part names), the keys that end such a move (ENTER),
    and whether the wait wants letters typed (a name: a page then shows its keyboard)."""

    targets: tuple[Target, ...] = ()
    moves: tuple[frozenset[str], ...] = ()
    finish: tuple[str, ...] = ()
    letters: bool = False

    def __post_init__(self):
        object.__setattr__(self, "targets", tuple(self.targets))
        object.__setattr__(self, "moves", tuple(frozenset(move) for move in self.moves))
        object.__setattr__(self, "finish", _press_names(self.finish))
        if len(self.targets) > MAX_TARGETS:
            raise TargetError(f"{MAX_TARGETS} targets at most")
        names = [target.name for target in self.targets]
        if len(set(names)) != len(names):
            raise TargetError("two targets have the same name")
        parts = {target.name for target in self.targets if target.part}
        for move in self.moves:
            if not move <= parts:
                raise TargetError(f"a move names what is no part: {sorted(move - parts)}")

    def at(self, row: int, col: int) -> Target | None:
        """The target covering the cell (row, col), or None."""
        return next((target for target in self.targets if target.covers(row, col)), None)

    def named(self, name: str) -> Target | None:
        return next((target for target in self.targets if target.name == name), None)

    def as_json(self) -> dict:
        return {
            "targets": [target.as_json() for target in self.targets],
            "moves": [sorted(move) for move in self.moves],
            "finish": list(self.finish),
            "letters": self.letters,
        }

    @classmethod
    def from_json(cls, said) -> Targets:
        """A declaration as `as_json` gives it; TargetError if it is not one."""
        try:
            return cls(
                tuple(Target(**target) for target in said["targets"]),
                tuple(frozenset(move) for move in said.get("moves", ())),
                tuple(said.get("finish", ())),
                bool(said.get("letters", False)),
            )
        except (TypeError, KeyError, AttributeError) as error:
            raise TargetError(f"not a declaration of targets ({error})") from None


NO_TARGETS = Targets()


def targets_of(machine) -> Targets:
    """What `machine`'s program says its cells mean now (`machine.targets`: a Targets, a function of
    the machine giving one, or None)."""
    declared = getattr(machine, "targets", None)
    if callable(declared):
        declared = declared(machine)
    return declared or NO_TARGETS


def char_at(machine, row: int, col: int) -> str:
    """The character of the ROM's font shown in the cell (row, col) of `machine`'s screen (ink on
    paper or inverted), or "" if the cell shows none: how a program's targets read a screen drawn by
    a listing on the genuine ROM, which says nothing of its cells."""
    return _glyphs(machine.memory).get(_cells(machine.memory, row, col, 1)[0], "")


def text_at(machine, row: int, col: int, length: int) -> str:
    """The characters of the ROM's font in `length` cells from (row, col) (a cell showing none: "?")."""
    glyphs = _glyphs(machine.memory)
    return "".join(glyphs.get(cell, "?") for cell in _cells(machine.memory, row, col, length))


def _cells(memory, row: int, col: int, length: int) -> list[bytes]:
    """The 8 bytes of each of `length` cells from (row, col), its pixel lines top to bottom."""
    if col + length > COLUMNS:  # past the row's end: the cells one by one
        return [_cells(memory, row, col + offset, 1)[0] for offset in range(length)]
    address = cell_address(row, col)
    lines = memory[address : address + 256 * CELL_PIXELS].reshape(CELL_PIXELS, 256)[:, :length]
    cells = lines.T.tobytes()  # cell by cell, each its pixel lines
    return [cells[start : start + CELL_PIXELS] for start in range(0, len(cells), CELL_PIXELS)]


_GLYPHS: dict[bytes, dict[bytes, str]] = {}


def _glyphs(memory) -> dict[bytes, str]:
    """The ROM font's characters by their cells' bytes, ink on paper, then inverted (a cell that is
    both is read as the first)."""
    font = memory[FONT_ADDRESS : FONT_ADDRESS + 96 * CELL_PIXELS].tobytes()
    if font not in _GLYPHS:
        shapes = [(font[8 * code : 8 * code + 8], chr(32 + code)) for code in range(96)]
        glyphs: dict[bytes, str] = {}
        for shape, char in shapes:
            glyphs.setdefault(shape, char)
        for shape, char in shapes:
            glyphs.setdefault(bytes(255 - byte for byte in shape), char)
        _GLYPHS[font] = glyphs
    return _GLYPHS[font]


def cell_at(
    x: float,
    y: float,
    width: float,
    height: float,
    frame_width: int,
    frame_height: int,
    border_left: int,
    border_top: int,
) -> tuple[int, int] | None:
    """The character cell (row, column) at (x, y) in a picture `width` x `height` showing a frame of
    `frame_width` x `frame_height` Spectrum pixels whose screen starts at (border_left, border_top);
    None in the border or outside."""
    if width <= 0 or height <= 0:
        return None
    px, py = x * frame_width / width - border_left, y * frame_height / height - border_top
    if not (0 <= px < COLUMNS * 8 and 0 <= py < ROWS * 8):
        return None
    return int(py // 8), int(px // 8)


@dataclass
class Pointer:
    """The host's side of pointing: the parts picked so far (names, in the order tapped), and what a
    tap or a drag types."""

    picks: list[str] = field(default_factory=list)

    def forget_gone(self, targets: Targets) -> None:
        """Parts no longer declared (the program moved on) are no longer picked."""
        if not self.picks:  # most frames: nothing picked
            return
        self.picks = [name for name in self.picks if (target := targets.named(name)) is not None and target.part]

    def tap(self, targets: Targets, name: str) -> tuple[str, ...]:
        """The keys a tap on the target `name` types now (none while a move of parts is being
        picked); TargetError if no target has that name."""
        target = targets.named(name)
        if target is None:
            raise TargetError(f"no target {name!r} here")
        self.forget_gone(targets)
        if not target.part:
            self.picks = []
            return target.keys
        if name in self.picks:  # tapped again: no longer picked
            self.picks.remove(name)
            return ()
        self.picks.append(name)
        picked = frozenset(self.picks)
        if picked in targets.moves or not any(picked < move for move in targets.moves):
            return self._typed(targets)
        return ()

    def tap_cell(self, targets: Targets, row: int, col: int) -> tuple[str, ...]:
        """A tap on the cell (row, col): what it types (nothing on a cell that is no target)."""
        target = targets.at(row, col)
        return () if target is None else self.tap(targets, target.name)

    def drag(self, targets: Targets, start: str, end: str) -> tuple[str, ...]:
        """The keys a drag from the target `start` to the target `end` types: `start`'s drag keys,
        then `end`'s drop keys (nothing if `start` can't be dragged); a drag that ends where it began
        is a tap."""
        if start == end:
            return self.tap(targets, start)
        source, destination = targets.named(start), targets.named(end)
        if source is None or destination is None:
            raise TargetError(f"no target {start if source is None else end!r} here")
        if source.part and destination.part:  # one card dragged onto another: both picked
            self.picks = []
            return self.tap(targets, start) + self.tap(targets, end)
        self.picks = []
        dragged = source.keys if source.drag is None else source.drag
        dropped = destination.keys if destination.drop is None else destination.drop
        if not dragged or not dropped:  # what can't be dragged, or dropped there: nothing typed
            return ()
        return dragged + dropped

    def _typed(self, targets: Targets) -> tuple[str, ...]:
        parts = [targets.named(name) for name in self.picks]
        keys = tuple(key for part in parts if part is not None for key in part.keys) + targets.finish
        self.picks = []
        return keys


def press_keys(name: str) -> frozenset[str]:
    """The Spectrum keys of one press named as in a script ('ENTER', 'a', 'CAPS+5', 'DELETE')."""
    items = [name] if "+" not in name or len(name) == 1 else [tuple(name.split("+"))]
    try:
        (press,) = presses_from(items)
    except ValueError as error:
        raise TargetError(str(error)) from None
    return press


class Typist:
    """Presses typed one at a time, each when the program waits for a key (as a headless script
    types them), held HOLD_FRAMES frames and then let go for GAP_FRAMES: the keys of taps, beside the
    keys a person holds."""

    def __init__(self):
        self._queue: deque[frozenset[str]] = deque()
        self._press: frozenset[str] = frozenset()
        self._hold_left = self._gap_left = 0

    def type(self, keys: Iterable[str]) -> None:
        self._queue.extend(press_keys(name) for name in keys)

    @property
    def busy(self) -> bool:
        return bool(self._queue or self._hold_left or self._gap_left)

    def clear(self) -> None:
        self._queue.clear()

    def for_frame(self, awaiting_key: bool = True) -> frozenset[str]:
        """The keys the typist holds this frame."""
        if not self._hold_left and not self._gap_left and self._queue and awaiting_key:
            self._press = self._queue.popleft()
            self._hold_left, self._gap_left = HOLD_FRAMES, GAP_FRAMES
        if self._hold_left:
            self._hold_left -= 1
            return self._press
        self._gap_left = max(0, self._gap_left - 1)
        return frozenset()


READ_EVERY = 25  # frames: how often a screen being drawn is read for its targets (a tap reads it at once)
STILL_FRAMES = 8  # frames a changed screen stays as it is before it is read (drawn: a program waiting)


class PointerSession:
    """Pointing at one machine's screen for a front end: its `Pointer`, its `Typist`, what the
    targets are now and what to outline. A tap or drag waits, as a scripted one does, until the
    program waits for a key with nothing left to type, and is then read against the targets of
    that moment (a card that moved is not tapped where it was). `news` is what a terminal is told
    of the targets and the picks when either changed; `refusals`, taps that met no target."""

    def __init__(self):
        self.pointer = Pointer()
        self.typist = Typist()
        self.targets = NO_TARGETS
        self.refusals: list[str] = []
        self._pending: deque[Callable[[], tuple[str, ...]]] = deque()
        self._remote = None  # a served machine's terminal (`wire.Terminal`): taps go to its server
        self._read: tuple | None = None  # (the function, the screen it read, what it read there)
        self._said: tuple | None = None
        self._machine = None  # the machine looked at, when its screen changed since its targets were read
        self._unread_frames = 0  # frames since a screen that changed was last read for its targets
        self._last_screen: bytes | None = None  # the screen at the frame before
        self._still_frames = 0  # frames it has stayed the same

    def look(self, machine, screen: bytes | None = None) -> Targets:
        """Take the machine's targets for this frame (`screen`: its SCREEN$, when the caller has
        it already). A terminal of a served machine (it has an `outbox`) has its server's targets
        and picks: taps are sent there, to be typed there."""
        self._remote = machine if hasattr(machine, "outbox") else None
        declared = getattr(machine, "targets", None)
        self._machine = None
        if callable(declared):  # read from the screen: again only when the screen changed
            if screen is None:
                screen = machine.memory[DISPLAY_FILE:ATTRIBUTES_END].tobytes()
            self._still_frames = self._still_frames + 1 if screen == self._last_screen else 0
            self._last_screen = screen
            if self._read is None or self._read[0] is not declared or self._read[1] != screen:
                # a screen being drawn while the program is busy is read at most every READ_EVERY
                # frames, and once it has stayed as it is for STILL_FRAMES (drawn: the program
                # thinks, or pauses); at a key wait, or with a tap waiting, at once (`for_frame`)
                self._unread_frames += 1
                if (
                    self._read is None
                    or self._read[0] is not declared
                    or self._pending
                    or getattr(machine, "awaiting_key", True)
                    or self._still_frames >= STILL_FRAMES
                    or self._unread_frames >= READ_EVERY
                ):
                    self._read_screen(machine, declared, screen)
                else:
                    self._machine = machine
            else:
                self.targets = self._read[2]
        else:
            self.targets = targets_of(machine)
        self.pointer.forget_gone(self.targets)
        return self.targets

    def _read_screen(self, machine, declared, screen: bytes) -> None:
        self._read = read = (declared, screen, targets_of(machine))
        self.targets = read[2]
        self._unread_frames = 0
        self._machine = None

    @property
    def busy(self) -> bool:
        return bool(self._pending) or self.typist.busy

    def for_frame(self, awaiting_key: bool = True) -> frozenset[str]:
        """The keys the taps hold this frame: the next tap read when the program waits for a key
        and the last one is typed."""
        if self._pending and awaiting_key and self._machine is not None:  # read what is on the screen now
            machine = self._machine
            self._read_screen(machine, machine.targets, machine.memory[DISPLAY_FILE:ATTRIBUTES_END].tobytes())
            self.pointer.forget_gone(self.targets)
        while self._pending and awaiting_key and not self.typist.busy:
            try:
                self.typist.type(self._pending.popleft()())
            except TargetError as refusal:
                self.refusals.append(str(refusal))
        return self.typist.for_frame(awaiting_key)

    @property
    def picked(self) -> list[str]:
        """What to outline as picked: the parts picked here, and what the program says it picked."""
        if self._remote is not None:
            return list(self._remote.picked)
        return self.pointer.picks + [target.name for target in self.targets.targets if target.picked]

    def tap(self, row: int, col: int) -> None:
        if self._remote is not None:
            self._remote.outbox.append({"tap": [row, col]})
            return
        self._pending.append(lambda: self.pointer.tap_cell(self.targets, row, col))

    def tap_name(self, name: str) -> None:
        if self._remote is not None:
            self._remote.outbox.append({"tap": name})
            return
        self._pending.append(lambda: self.pointer.tap(self.targets, name))

    def drag(self, start: tuple[int, int], end: tuple[int, int]) -> None:
        if self._remote is not None:
            self._remote.outbox.append({"drag": [list(start), list(end)]} if start != end else {"tap": list(start)})
            return
        self._pending.append(lambda: self._dragged(start, end))

    def _dragged(self, start: tuple[int, int], end: tuple[int, int]) -> tuple[str, ...]:
        first, last = self.targets.at(*start), self.targets.at(*end)
        if first is None:
            return ()
        if last is None:
            return self.pointer.tap_cell(self.targets, *start)
        return self.pointer.drag(self.targets, first.name, last.name)

    def news(self) -> str | None:
        """JSON for a terminal when the targets or the picks changed since it was last told, else None."""
        said = (self.targets, tuple(self.picked))
        if said == self._said:
            return None
        self._said = said
        return json.dumps({"targets": self.targets.as_json(), "picked": self.picked})


@dataclass(frozen=True)
class Tap:
    """A tap in a headless script: on the cell `cell` (row, column) or the target named `name`; with
    `to`, a drag from there to that cell or target. Typed when the program waits for a key."""

    at: tuple[int, int] | str
    to: tuple[int, int] | str | None = None

    @classmethod
    def parse(cls, text: str) -> Tap:
        """`{tap ROW,COL}`, `{tap NAME}`, `{drag A B}` (A and B each ROW,COL or a name) without the
        braces; TargetError says what is wrong."""
        word, _, rest = text.partition(" ")
        places = rest.split()
        if word not in ("tap", "drag") or len(places) != (1 if word == "tap" else 2):
            raise TargetError(f"{{{text}}}: a tap is {{tap ROW,COL}} or {{tap NAME}}, a drag {{drag FROM TO}}")
        return cls(*map(_place, places))

    def keys(self, pointer: Pointer, targets: Targets) -> tuple[str, ...]:
        """What it types on `targets` now; TargetError when it meets no target."""
        start = self._name(targets, self.at)
        if self.to is None:
            return pointer.tap(targets, start)
        return pointer.drag(targets, start, self._name(targets, self.to))

    @staticmethod
    def _name(targets: Targets, place: tuple[int, int] | str) -> str:
        if isinstance(place, str):
            if targets.named(place) is None:
                raise TargetError(
                    f"no target {place!r} to tap here; the targets are: "
                    + (", ".join(target.name for target in targets.targets) or "none")
                )
            return place
        target = targets.at(*place)
        if target is None:
            raise TargetError(f"no target at row {place[0]}, column {place[1]}")
        return target.name


def _place(text: str) -> tuple[int, int] | str:
    row, comma, col = text.partition(",")
    if comma and row.isdigit() and col.isdigit():
        if not (int(row) < ROWS and int(col) < COLUMNS):
            raise TargetError(f"{text}: rows are 0-{ROWS - 1}, columns 0-{COLUMNS - 1}")
        return int(row), int(col)
    return text
