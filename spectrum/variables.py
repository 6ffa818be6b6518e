"""A program's BASIC variables in the order and sizes the ROM keeps them in its variables area.

The area runs from VARS to the 80h byte before E_LINE. A variable first assigned goes at its end;
a whole string assigned again goes there too (LET makes the new one there, then reclaims the
old), and so does an array DIM'd again; a number assigned again stays where it is, and a FOR
turns a simple number into a FOR variable in place. The order matters for time: LOOK-VARS
passes every variable before the one it looks for, and making room or reclaiming it moves
everything after it.

Values are kept as the layer's INPUT expressions read them (`spectrum.expression`): numbers as
int or float, strings as str of Spectrum codes, a numeric array as a list (of lists), a DIM'd
string array as a list (of lists) of its fixed-length strings.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    """The variable's type, as bits 7-5 of its first byte give it."""

    NUMBER = 0b011
    LONG_NUMBER = 0b101
    FOR_LOOP = 0b111
    STRING = 0b010
    NUMBER_ARRAY = 0b100
    STRING_ARRAY = 0b110


NUMBER_SIZE = 5
FOR_EXTRA = 13  # the limit, the step, the looping line and statement
END_MARKER = 1  # the 80h byte after the last variable


@dataclass
class Loop:
    """What FOR keeps with its variable: the limit, the step and where the loop goes back to."""

    limit: float
    step: float
    line: int
    statement: int


class Variables(dict):
    """name → value, in the variables area's order (``list(variables)``), with `loops` for the
    FOR variables and `arrays` the names DIM'd (a numeric array's value is a list; a string
    array's of one dimension is its one string). Assigning with ``variables[name] = value`` is
    LET: a whole string moves to the end; an array is changed element by element in its value."""

    def __init__(self, *args, **kwargs):
        super().__init__()
        self.loops: dict[str, Loop] = {}
        self.arrays: set[str] = set()
        # each variable's offset from VARS and the area's size, and the area's shape (names in
        # order, FOR variables, arrays): worked out again only after a change (`_changed`)
        self._layout: tuple[dict[str, int], int] | None = None
        self._shape: tuple | None = None
        for name, value in dict(*args, **kwargs).items():
            if isinstance(value, list):
                self.dim(name, value)
            else:
                self[name] = value

    def __setitem__(self, name: str, value) -> None:
        if name in self.arrays:
            raise ValueError(f"{name} is an array: assign its elements")
        if name.endswith("$") and name in self:
            super().__delitem__(name)
        elif name in self:  # a number over a number, where it is: the same size
            super().__setitem__(name, value)
            return
        super().__setitem__(name, value)
        self._changed()

    def __delitem__(self, name: str) -> None:
        super().__delitem__(name)
        self.loops.pop(name, None)
        self.arrays.discard(name)
        self._changed()

    def _changed(self) -> None:
        self._layout = self._shape = None

    def __deepcopy__(self, memo) -> Variables:
        copied = Variables()
        for name, value in self.items():
            dict.__setitem__(copied, name, deepcopy(value, memo))
        copied.loops = deepcopy(self.loops, memo)
        copied.arrays = set(self.arrays)
        return copied

    def update(self, *args, **kwargs) -> None:
        for name, value in dict(*args, **kwargs).items():
            self[name] = value

    def dim(self, name: str, value: list) -> None:
        """DIM: the array made anew at the end of the area."""
        self.pop(name, None)
        super().__setitem__(name, value)
        self.arrays.add(name)
        self._changed()

    def assign_element(self, name: str, place: tuple[int, ...], value) -> None:
        """LET of an array's element, where the array is: in a string array, a subscript for
        every dimension makes the element one character of a string (the area's layout is as
        it was: an element keeps its size)."""
        super().__setitem__(name, _replaced(self[name], place, value))

    def for_loop(self, name: str, value: float, loop: Loop) -> None:
        """FOR: the variable takes its first value (a new one goes at the end) and its loop."""
        if name in self.arrays:
            raise ValueError(f"{name} is an array")
        super().__setitem__(name, value)
        self.loops[name] = loop
        self._changed()

    def pop(self, name, *default):
        self.loops.pop(name, None)
        self.arrays.discard(name)
        self._changed()
        return super().pop(name, *default)

    def clear(self) -> None:
        super().clear()
        self.loops.clear()
        self.arrays.clear()
        self._changed()

    def kind(self, name: str) -> Kind:
        if name in self.arrays:
            return Kind.STRING_ARRAY if name.endswith("$") else Kind.NUMBER_ARRAY
        if name.endswith("$"):
            return Kind.STRING
        if name in self.loops:
            return Kind.FOR_LOOP
        return Kind.LONG_NUMBER if len(name) > 1 else Kind.NUMBER

    def size(self, name: str) -> int:
        """The bytes the variable takes in the area."""
        kind, value = self.kind(name), self[name]
        if kind is Kind.STRING:
            return 3 + len(value)
        if kind in (Kind.NUMBER_ARRAY, Kind.STRING_ARRAY):
            dimensions = array_dimensions(value, kind is Kind.STRING_ARRAY)
            elements = 1
            for dimension in dimensions:
                elements *= dimension
            return 4 + 2 * len(dimensions) + elements * (1 if kind is Kind.STRING_ARRAY else NUMBER_SIZE)
        if kind is Kind.FOR_LOOP:
            return 1 + NUMBER_SIZE + FOR_EXTRA
        return len(name) + NUMBER_SIZE

    def layout(self) -> tuple[dict[str, int], int]:
        """Each variable's offset from VARS, and the area's size (VARS to E_LINE: every variable
        and the end marker)."""
        if self._layout is None:
            offsets, offset, arrays, loops = {}, 0, self.arrays, self.loops
            for name, value in self.items():  # `size` of each, in short for the common kinds
                offsets[name] = offset
                if name in arrays:
                    offset += self.size(name)
                elif name[-1] == "$":
                    offset += 3 + len(value)
                elif name in loops:
                    offset += 1 + NUMBER_SIZE + FOR_EXTRA
                else:
                    offset += len(name) + NUMBER_SIZE
            self._layout = (offsets, offset + END_MARKER)
        return self._layout

    def shape(self) -> tuple:
        """What LOOK-VARS' time depends on besides the name: the names in order, the FOR
        variables and the arrays."""
        if self._shape is None:
            self._shape = (tuple(self), tuple(self.loops), frozenset(self.arrays))
        return self._shape

    def area_size(self) -> int:
        """VARS to E_LINE: every variable and the end marker."""
        return self.layout()[1]

    def offset(self, name: str) -> int:
        """Where `name` starts, from VARS (KeyError for no such variable)."""
        return self.layout()[0][name]

    def after(self, name: str) -> int:
        """The bytes of the variables after `name` in the area, the end marker included."""
        offsets, area = self.layout()
        return area - offsets[name] - self.size(name)


def array_dimensions(value, string_array: bool) -> list[int]:
    """The DIM sizes of an array value (a string array's last one is its strings' length)."""
    dimensions, item = [], value
    while isinstance(item, list):
        dimensions.append(len(item))
        item = item[0]
    if string_array:
        dimensions.append(len(item))
    return dimensions


def _replaced(array, place: tuple[int, ...], value):
    """`array` with the element at `place` replaced (a string, being immutable, made anew)."""
    if not place:
        return value
    index = place[0] - 1
    if isinstance(array, str):
        return array[:index] + value + array[index + 1 :]
    array[index] = _replaced(array[index], place[1:], value)
    return array
