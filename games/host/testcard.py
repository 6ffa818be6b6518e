"""A test card: every colour, BRIGHT, FLASH, INVERSE, OVER, block graphics, UDGs and a BEEP scale.

Like every program it loads the machine's side (the table kit) only when it runs.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from spectrum.colours import BLACK, BLUE, CONTRAST, RED, WHITE, YELLOW

from ..program import NOTHING

if TYPE_CHECKING:
    from spectrum import Spectrum

TITLE = "Test card"
NEEDS = NOTHING

SCALE = (0, 2, 4, 5, 7, 9, 11, 12)  # C major, middle C upwards


def draw(machine: Spectrum) -> None:
    """The card itself, UDGs A-D already holding the suits."""
    machine.set_border(BLUE)
    machine.colour(ink=BLACK, paper=WHITE, bright=0, flash=0)
    machine.cls()
    machine.print_at(0, 7, " ZX CARDS TEST CARD ", ink=WHITE, paper=BLUE, bright=1)
    for bright in (0, 1):
        machine.print_at(2, 16 * bright, " ".join("01234567") + " ")
        for paper in range(8):
            for ink in range(8):  # ink on the top half, paper below
                machine.print_at(3 + paper, 16 * bright + 2 * ink, "\x83\x83", ink=ink, paper=paper, bright=bright)
    machine.print_at(11, 0, "INK on PAPER 0-7        BRIGHT")
    machine.print_at(12, 0, " FLASH ", flash=1, ink=RED, paper=YELLOW)
    machine.print_at(12, 8, " INVERSE ", inverse=1)
    machine.print_at(12, 18, "OVER", over=0)
    machine.print_at(12, 18, "____", over=1)
    machine.print_at(12, 23, "INK 9", paper=BLUE, ink=CONTRAST)
    machine.print_at(13, 0, bytes(range(128, 144)) + b" " + bytes(range(144, 148)), ink=BLUE)
    machine.print_at(13, 21, "\x90\x93", ink=BLACK)  # spade and club
    machine.print_at(13, 24, "\x91\x92", ink=RED)  # heart and diamond
    machine.print_at(15, 0, bytes(range(32, 128)))
    machine.print_at(19, 0, 1 / 3)
    machine.print_at(19, 12, 2**40)
    machine.print_at(19, 26, 0.05)
    machine.print_at(21, 0, "Press any key", bright=1)


def play_scale(machine: Spectrum) -> None:
    for pitch in SCALE:
        machine.beep(0.2, pitch)


def add_options(parser: argparse.ArgumentParser) -> None:
    """The test card has no options of its own."""


def run(machine: Spectrum) -> None:
    """Show the test card, play the scale, and wait for a key."""
    from ..drawing import SUIT_UDGS, poke_udgs

    poke_udgs(machine, SUIT_UDGS)
    draw(machine)
    play_scale(machine)
    machine.pause(0)
