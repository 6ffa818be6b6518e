"""The keyboard as BASIC sees it: the ROM's keyboard interrupt (KEYBOARD $02BF with KSTATE and
auto-repeat), PAUSE, INKEY$ and WAIT-KEY. The decoding itself is in `keyboard`."""

from typing import TYPE_CHECKING

from . import keyboard, sysvars
from .memory import find_word
from .sysvars import Flags, Flags2

if TYPE_CHECKING:
    import numpy as np

BREAK_KEYS = frozenset({"CAPS", "SPACE"})


class Keys:
    """Keys pressed on the machine's matrix (`keys_held`, set by the front end every frame)."""

    if TYPE_CHECKING:  # what the other parts of the machine (spectrum.machine.Spectrum) give this one
        memory: np.ndarray
        keys_held: set[str]

        def charge(self, item: str, count: int = 1) -> None: ...
        def wait_frame(
            self, *, interrupts: bool = True, awaiting_key: bool = False, breakable: bool = True
        ) -> None: ...

    def _keyboard_interrupt(self) -> None:
        """KEYBOARD ($02BF): new keys and auto-repeat into LAST_K, with FLAGS' NEW_KEY set.

        Keeping the ROM's time, the interrupt routine takes longer for each key down, each key
        slot in use, a key found and a new key decoded."""
        held = frozenset(self.keys_held)
        self.charge("interrupt")
        self.charge("interrupt-key-down", len(held))
        scanned = keyboard.key_scan(held)
        if scanned is None:
            return
        kstate = self.memory[sysvars.KSTATE : sysvars.KSTATE + 8]
        for base in (0, 4):
            if kstate[base] < 0x80:
                self.charge("interrupt-slot")
                kstate[base + 1] -= 1
                if kstate[base + 1] == 0:
                    kstate[base] = 0xFF
        shift, key = scanned
        main = keyboard.key_test(shift, key)
        if main is None:
            return
        self.charge("interrupt-key")
        for base in (0, 4):
            if kstate[base] == main:
                kstate[base + 1] = 5
                kstate[base + 2] -= 1
                if kstate[base + 2]:
                    return
                kstate[base + 2] = self.memory[sysvars.REPPER]
                self.charge("interrupt-repeat")
                self._new_key(int(kstate[base + 3]))
                return
        free = next((base for base in (4, 0) if kstate[base] >= 0x80), None)
        if free is None:
            return
        self.charge("interrupt-new-key")
        flags, flags2 = self.memory[sysvars.FLAGS], self.memory[sysvars.FLAGS2]
        code = keyboard.key_decode(
            main, shift, int(self.memory[sysvars.MODE]), bool(flags & Flags.L_MODE), bool(flags2 & Flags2.CAPS_LOCK)
        )
        kstate[free : free + 4] = [main, 5, self.memory[sysvars.REPDEL], code]
        self._new_key(code)

    def _new_key(self, code: int) -> None:
        self.memory[sysvars.LAST_K] = code
        self.memory[sysvars.FLAGS] |= Flags.NEW_KEY

    def read_port(self, port: int) -> int:
        """IN port: the keys held on the half-rows the port's high byte selects."""
        self.keyboard_read = True
        return keyboard.read_port(port, frozenset(self.keys_held))

    def pause(self, frames: float) -> None:
        """PAUSE n: wait n frames or until a key is pressed; PAUSE 0 waits for a key."""
        remaining = find_word(frames)
        waiting_for_key = remaining == 0
        while True:
            self.wait_frame(awaiting_key=waiting_for_key)
            self.charge("pause-pass")
            remaining = (remaining - 1) & 0xFFFF
            if remaining == 0:
                break
            if remaining == 0xFFFF:  # PAUSE 0 never counts out
                remaining = 0
            if self.memory[sysvars.FLAGS] & Flags.NEW_KEY:
                break
        self.take_key()

    def inkey(self) -> str:
        """INKEY$: the key held now, decoded in L mode (or C with CAPS LOCK), or ""."""
        self.keyboard_read = True
        code = keyboard.decode(self.keys_held, caps_lock=bool(self.memory[sysvars.FLAGS2] & Flags2.CAPS_LOCK))
        return "" if code is None else chr(code)

    def wait_key(self) -> int:
        """WAIT-KEY: frames pass until the keyboard interrupt hands over a key."""
        while (code := self.take_key()) is None:
            self.wait_frame(awaiting_key=True, breakable=False)
        return code

    def take_key(self) -> int | None:
        """The key the keyboard interrupt has handed over (LAST_K, when FLAGS has NEW_KEY), taken
        as KEY-INPUT takes it: NEW_KEY is cleared, so that the same press is not taken again.
        None if no new key has come (NEW_KEY is left clear)."""
        flags = int(self.memory[sysvars.FLAGS])
        self.memory[sysvars.FLAGS] = flags & ~Flags.NEW_KEY & 0xFF
        return int(self.memory[sysvars.LAST_K]) if flags & Flags.NEW_KEY else None
