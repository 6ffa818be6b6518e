"""Whole games played by taps alone, headless, against the same games typed: the same keys at the
same frames, the same screen at every key and at the end (Patience to its end, on the port and on
the genuine ROM; a Canfield deal with moves home and between piles, by taps and by drags; a hand of
Spades and a bid of the full game).
"""

from __future__ import annotations

import pytest

from games.canfield import play as canfield_play
from games.canfield import targets as canfield_targets
from games.canfield.deals import deck_for
from games.canfield.rules import Canfield
from games.canfield.solver import Solved, solve
from games.patience import original as patience_original
from games.patience import play as patience_play
from games.patience import rules as patience_rules
from games.patience import shuffled_pack
from games.spades import run as run_spades
from spectrum import Spectrum
from spectrum.compare import screen_of
from spectrum.frontends import HeadlessFrontend, Press, ScriptExhausted
from spectrum.pointing import Tap, targets_of


class Recording(HeadlessFrontend):
    """A headless front end that notes each press as it begins: its frame, its keys, the screen."""

    def __init__(self, presses):
        super().__init__(presses)
        self.pressed: list[tuple[int, frozenset[str], bytes]] = []
        self._was_held = False

    def present(self, machine) -> None:
        super().present(machine)
        held = bool(machine.keys_held)
        if held and not self._was_held:
            self.pressed.append((machine.frame_count, frozenset(machine.keys_held), screen_of(machine)))
        self._was_held = held


def played(program, presses) -> tuple[Recording, Spectrum]:
    frontend = Recording(presses)
    machine = Spectrum(frontend)
    try:
        program(machine)
    except ScriptExhausted:
        pass
    return frontend, machine


def assert_same_game(tapped: Recording, tapped_machine, typed: Recording, typed_machine) -> None:
    assert [(frame, keys) for frame, keys, _ in tapped.pressed] == [(frame, keys) for frame, keys, _ in typed.pressed]
    for number, ((frame, keys, shown), (_, _, expected)) in enumerate(zip(tapped.pressed, typed.pressed)):
        assert shown == expected, f"the screens differ at press {number} ({sorted(keys)}, frame {frame})"
    assert screen_of(tapped_machine) == screen_of(typed_machine)


# --- Patience ----------------------------------------------------------------------------------------


def patience_taps(line: list[str]) -> list:
    """The taps of a game: deal, each entry's cards (or its choice), and no more games."""
    taps = [Tap("deal")]
    for entry in line:
        taps += [Tap("new")] if entry == "9" else [Tap("resign")] if entry == "0" else [Tap(card) for card in entry]
    return [*taps, Tap("No more")]


def patience_keys(line: list[str]) -> list[str]:
    return ["ENTER", *(key for entry in line for key in (*entry, "ENTER")), "n"]


def test_patience_tapped_to_its_end_is_the_game_typed():
    seed = 1
    line = patience_rules.winning_line(shuffled_pack(seed).decode("latin-1"))
    assert any(len(entry) == 3 for entry in line)  # J, Q and K tapped too
    game = lambda machine: patience_play.run(machine, seed, fast=True)  # noqa: E731
    tapped, tapped_machine = played(game, patience_taps(line))
    typed, typed_machine = played(game, patience_keys(line))
    assert len(tapped.pressed) == sum(len(entry) + 1 for entry in line) + 2
    assert_same_game(tapped, tapped_machine, typed, typed_machine)
    assert "Thanks for playing." in "".join(tapped_machine.screen_char(10, col) for col in range(32))


def test_patience_a_refused_pair_and_the_choices_are_typed_as_a_player_types_them():
    seed = 5
    taps = [Tap("deal"), Tap("3"), Tap("2"), Tap("new"), Tap("resign"), Tap("Another game")]
    game = lambda machine: patience_play.run(machine, seed, fast=True)  # noqa: E731
    tapped, tapped_machine = played(game, taps)
    typed, typed_machine = played(game, ["ENTER", "3", "2", "ENTER", "9", "ENTER", "0", "ENTER", "y"])
    assert_same_game(tapped, tapped_machine, typed, typed_machine)


def test_patience_taps_on_the_genuine_rom_are_the_ports():
    """The same taps, read on the ROM's screen by the same targets: the screens at every key agree."""
    seed = 1
    line = patience_rules.winning_line(shuffled_pack(seed).decode("latin-1"))[:6]
    taps = [Tap((10, 10))] + patience_taps(line)[1:-1] + [Tap("resign"), Tap("N")]
    port = Spectrum(HeadlessFrontend(taps))
    difference, port_waits, rom = patience_original.compare_headless(port, seed)
    assert difference is None
    assert len(port_waits) == len(rom.frontend.waits) > len(line)


# --- Canfield ----------------------------------------------------------------------------------------

SOURCES = {"s": "stock", "t": "talon", **{n: f"pile{n}" for n in "1234"}}


def canfield_taps(deal: int, line: list[str]) -> tuple[list, dict]:
    """Taps for a solver's line (each step turns of the pack, P, then a move of two keys): P a tap on
    the pack; a move home a tap on its card; a move between piles a tap then a tap where the card
    can't go home, else a drag. How many of each."""
    game, taps, kinds = Canfield(deck_for(deal)), [], {"home": 0, "two taps": 0, "drag": 0, "turn": 0}
    for move in (
        move for step in line for move in [*"p" * (len(step) - len(step.lstrip("p"))), step.lstrip("p")] if move
    ):
        if move == "p":
            taps.append(Tap("pack"))
            kinds["turn"] += 1
        elif move[1] == "f":
            assert canfield_targets.goes_home(game, move[0])
            taps.append(Tap(SOURCES[move[0]]))
            kinds["home"] += 1
        elif not canfield_targets.goes_home(game, move[0]):
            taps += [Tap(SOURCES[move[0]]), Tap(f"pile{move[1]}")]
            kinds["two taps"] += 1
        else:
            taps.append(Tap(SOURCES[move[0]], f"pile{move[1]}"))
            kinds["drag"] += 1
        for key in move:
            game.press(key)
    return taps, kinds


def test_a_canfield_deal_tapped_is_the_deal_typed():
    for deal in range(1, 40):
        verdict = solve(Canfield(deck_for(deal)).position, budget=5_000)
        if verdict.outcome is Solved.WON:
            break
    keys = [move for move in verdict.line]
    taps, kinds = canfield_taps(deal, keys)
    assert kinds["home"] and kinds["two taps"] and kinds["turn"]
    game = lambda machine: canfield_play.run(machine, deal=deal)  # noqa: E731
    tapped, tapped_machine = played(game, taps)
    typed, typed_machine = played(game, [key for move in keys for key in move])
    assert_same_game(tapped, tapped_machine, typed, typed_machine)
    assert "ALL 52 CARDS HOME!" in "".join(tapped_machine.screen_char(12, col) for col in range(32))


def test_canfield_a_drag_between_piles_is_its_two_keys():
    deal = 1
    assert solve(Canfield(deck_for(deal)).position, budget=5_000).line[0] == "23"  # pile 2 onto pile 3
    # then a drag from the foundations, which give no card back: nothing typed
    taps, keys = [Tap("pile2", "pile3"), Tap((4, 25), (7, 29))], ["2", "3"]
    run = lambda machine: canfield_play.run(machine, deal=deal)  # noqa: E731
    tapped, tapped_machine = played(run, taps)
    typed, typed_machine = played(run, keys)
    assert_same_game(tapped, tapped_machine, typed, typed_machine)


# --- Spades --------------------------------------------------------------------------------------------


class TappingPlayer(Recording):
    """Plays a seat by taps alone: at each key wait with nothing left to type, the card raised (the
    one the program picked for this turn), or the bid `bid`, or the next hand; `limit` taps."""

    def __init__(self, bid: str, limit: int):
        super().__init__([])
        self.bid, self.limit, self.taps = bid, limit, []

    def present(self, machine) -> None:
        if machine.awaiting_key and not self.presses and not self.pressing and len(self.taps) < self.limit:
            targets = targets_of(machine)
            chosen = (
                next((target for target in targets.targets if target.picked), None)
                or targets.named(self.bid)
                or targets.named("Next hand")
            )
            if chosen is not None:
                self.taps.append(chosen.name)
                self.presses.append(Tap(chosen.name))
        super().present(machine)


def spades_game(full: bool, folder):
    kept = dict(data_dir=folder, new_game=True) if full else {}
    return lambda machine: run_spades(machine, seed=3, level="rules", full_rules=full, **kept)


@pytest.mark.parametrize("full", [False, True], ids=["a hand", "the full game, with a bid"])
def test_spades_tapped_is_spades_typed(full, tmp_path):
    limit = 16 if full else 14
    tapping = TappingPlayer("3", limit)
    machine = Spectrum(tapping)
    try:
        spades_game(full, tmp_path / "tapped")(machine)
    except ScriptExhausted:
        pass
    assert len(tapping.taps) == limit
    if full:
        assert tapping.taps[0] == "3"
    cards = [name for name in tapping.taps if len(name) == 2 and name[1] in "shdc"]
    assert len(cards) >= 13  # a whole hand played by taps
    # the same keys typed at the same frames: the same game
    typed = Recording([Press(keys, at=frame) for frame, keys, _ in tapping.pressed])
    typed_machine = Spectrum(typed)
    try:
        spades_game(full, tmp_path / "typed")(typed_machine)
    except ScriptExhausted:
        pass
    assert_same_game(tapping, machine, typed, typed_machine)
