"""Host keys held down, and what each frame sees of them, for any front end a person types on.

A key pressed and let go between two frames is still seen by the next one: the ROM's scan, once
a frame, would miss a tap shorter than a frame, and a person never means a key to be missed.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable


class HeldKeys:
    """Host keys (any hashable: a pygame key code, a key name) each holding some Spectrum keys."""

    def __init__(self):
        self._held: dict[Hashable, frozenset[str]] = {}
        self._typed_symbols: set[Hashable] = set()  # keys that type a symbol the host's Shift made
        self._shifts: set[Hashable] = set()  # host keys that are the host's Shift
        self._not_yet_seen: set[Hashable] = set()
        self._let_go_after_frame: set[Hashable] = set()

    def press(
        self, host_key: Hashable, keys: Iterable[str], *, types_symbol: bool = False, is_shift: bool = False
    ) -> None:
        """`host_key` went down, holding `keys`; `types_symbol`: it types a character the host's
        Shift made ('"' is SYMBOL+p), so the host's Shift (`is_shift` keys) must not press CAPS."""
        self._held[host_key] = frozenset(keys)
        if types_symbol:
            self._typed_symbols.add(host_key)
        if is_shift:
            self._shifts.add(host_key)
        self._not_yet_seen.add(host_key)
        self._let_go_after_frame.discard(host_key)

    def release(self, host_key: Hashable) -> None:
        """`host_key` went up: let go now, or after the next frame if no frame has seen it yet."""
        if host_key in self._not_yet_seen:
            self._let_go_after_frame.add(host_key)
        else:
            self._forget(host_key)

    def release_all(self) -> None:
        """Every key let go (the host's window lost the focus: their key-ups never come)."""
        self._let_go_after_frame.update(self._held)

    def held(self, host_key: Hashable) -> bool:
        return host_key in self._held

    def for_frame(self) -> set[str]:
        """The Spectrum keys this frame sees; the taps it has now seen are let go after it."""
        keys: set[str] = set()
        for host_key, spectrum in self._held.items():
            if not (self._typed_symbols and host_key in self._shifts):
                keys |= spectrum
        for host_key in self._let_go_after_frame:
            self._forget(host_key)
        self._let_go_after_frame.clear()
        self._not_yet_seen.clear()
        return keys

    def _forget(self, host_key: Hashable) -> None:
        self._held.pop(host_key, None)
        self._typed_symbols.discard(host_key)
        self._shifts.discard(host_key)
