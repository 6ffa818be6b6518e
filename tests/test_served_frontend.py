"""The served front end on its own, with no server: what it sends a terminal each frame, the keys it
takes from one, its pacing, and the terminal's side rebuilding the picture and the sound."""

import json
import threading

import numpy as np
import pytest

from spectrum import Spectrum, hardware, render, sysvars, wire
from spectrum.frontends import HeadlessFrontend, Leave, Quit
from spectrum.frontends.held import HeldKeys
from spectrum.frontends.pacing import CALM_FRAMES, CATCH_UP_FRAMES, LATE_SECONDS, Pacer
from spectrum.hardware import FRAME_SECONDS
from spectrum.frontends.served import ServedFrontend


def held(*keys, frame=None):
    return wire.TerminalMessage(held=frozenset(keys), frame=frame)


class NoWaiting(Pacer):
    def wait(self):
        pass


def served(lockstep=False):
    sent = []
    return ServedFrontend(sent.append, lockstep=lockstep, pacer=NoWaiting()), sent


def test_a_tap_between_two_frames_is_seen_by_the_next_and_let_go_after_it():
    frontend, _ = served()
    machine = Spectrum(frontend)
    frontend.receive(held("a"))
    frontend.receive(held())
    machine.wait_frame()
    assert machine.keys_held == {"a"}
    machine.wait_frame()
    assert machine.keys_held == set()
    frontend.receive(held("CAPS", "5"))
    machine.wait_frame()
    machine.wait_frame()
    assert machine.keys_held == {"CAPS", "5"}  # held keys stay held
    frontend.receive(held("CAPS"))
    machine.wait_frame()
    assert machine.keys_held == {"CAPS"}


def test_the_host_shift_is_no_caps_while_a_key_types_the_symbol_it_made():
    keys = HeldKeys()
    keys.press("shift", {"CAPS"}, is_shift=True)
    keys.press("quote", {"SYMBOL", "p"}, types_symbol=True)
    assert keys.for_frame() == {"SYMBOL", "p"}
    keys.release("quote")
    assert keys.for_frame() == {"CAPS"}
    keys.release_all()
    assert keys.for_frame() == {"CAPS"}  # not yet seen let go: this frame still sees it, the next not
    assert keys.for_frame() == set()


def test_leave_and_a_gone_terminal_stop_the_machine_at_its_next_frame():
    frontend, _ = served()
    machine = Spectrum(frontend)
    frontend.receive(wire.TerminalMessage(leave=True))
    with pytest.raises(Leave):
        machine.wait_frame()
    frontend.disconnect()
    with pytest.raises(Quit):
        machine.wait_frame()


def test_an_unchanged_screen_sends_nothing_and_a_change_sends_only_its_bytes():
    frontend, sent = served()
    machine = Spectrum(frontend)
    machine.wait_frame()
    first = [message for message in sent if isinstance(message, bytes)]
    assert len(first) == 1 and len(first[0]) == wire.HEADER.size + wire.RUN.size + hardware.SCREEN_BYTES
    sent.clear()
    for _ in range(10):
        machine.wait_frame()
    assert sent == []
    machine.print_at(5, 3, "HI")
    machine.wait_frame()
    (frame,) = sent
    terminal = wire.Terminal()
    terminal.receive(first[0])
    terminal.receive(frame)
    assert len(frame) < 100  # two characters' cells, not the screen
    assert terminal.memory[hardware.DISPLAY_FILE : hardware.ATTRIBUTES_END].tobytes() == render.picture(machine)[0]
    assert terminal.frame_count == machine.frame_count and terminal.border == machine.border


def test_flash_is_sent_as_the_ula_swaps_it_every_16_frames():
    frontend, sent = served()
    machine = Spectrum(frontend)
    machine.print_at(0, 0, "X", flash=1)
    frames = []
    for _ in range(64):
        machine.wait_frame()
        frames += [wire.HEADER.unpack_from(message) for message in sent if isinstance(message, bytes)]
        sent.clear()
    swaps = [frame for _, frame, flags, *_ in frames[1:]]
    assert swaps == [16, 32, 48, 64] and [flags & wire.FLASH_PHASE for _, _, flags, *_ in frames[1:]] == [2, 0, 2, 0]


def test_the_terminal_plays_the_same_samples_as_the_wav_front_end():
    frontend, sent = served(lockstep=False)
    machine = Spectrum(frontend)
    local = HeadlessFrontend()
    reference = Spectrum(local)
    terminal = wire.Terminal()
    recorded = HeadlessFrontend()
    for each in (machine, reference):
        each.wait_frame()
        each.beep(0.3, 5)
        each.pause(3)
        each.beep(0.05, -20.5)
        each.pause(10)
    for message in sent:
        if terminal.receive(message):
            samples = terminal.samples()
            if samples.any():
                recorded.play(terminal, samples)
    rest = terminal.rest_of_the_sound()
    if rest.any():
        recorded.play(terminal, rest)
    expected, got = local.audio(), recorded.audio()
    assert len(expected) > 10_000 and np.array_equal(got, expected)


def test_in_lockstep_each_frame_waits_for_the_terminals_keys_for_it():
    frontend, sent = served(lockstep=True)
    machine = Spectrum(frontend)
    frontend.receive(held("q", frame=1))
    frontend.receive(held(frame=2))
    machine.wait_frame()
    assert machine.keys_held == {"q"}
    machine.wait_frame()
    assert machine.keys_held == set()
    assert [wire.HEADER.unpack_from(message)[1] for message in sent if isinstance(message, bytes)] == [1, 2]
    assert json.loads(sent[0]) == {"status": ""}


def test_the_pacer_keeps_the_ulas_rate_and_starts_afresh_when_far_behind():
    now, slept = [100.0], []

    def sleep(seconds):
        slept.append(seconds)
        now[0] += seconds

    pacer = Pacer(clock=lambda: now[0], sleep=sleep)
    for _ in range(50):
        pacer.wait()
        now[0] += 0.005  # each frame's work
    assert now[0] == pytest.approx(100.0 + 49 * FRAME_SECONDS + 0.005, abs=1e-9)  # 50.08 frames a second
    now[0] += (CATCH_UP_FRAMES + 1) * FRAME_SECONDS  # the host stalls
    pacer.wait()
    assert pacer.lateness > CATCH_UP_FRAMES * FRAME_SECONDS
    slept.clear()
    pacer.wait()
    assert slept == [pytest.approx(FRAME_SECONDS)]  # counted from the stall, not rushed to catch up
    now[0] += 10 * FRAME_SECONDS + 0.005  # a busy moment: ten frames behind, and a bit
    slept.clear()
    for _ in range(10):
        pacer.wait()
    assert slept == []  # run back to back
    pacer.wait()
    assert slept == [pytest.approx(FRAME_SECONDS - 0.005)]  # on time again, on the frames' own times


def test_a_pacer_that_may_run_ahead_does_so_once_woken_late_and_until_it_is_calm_again():
    now, oversleep = [100.0], []

    def sleep(seconds: float) -> None:  # a busy host wakes the sleeper late
        now[0] += seconds + (oversleep.pop() if oversleep else 0.0)

    pacer = Pacer(clock=lambda: now[0], sleep=sleep, ahead=0.04)
    begun, due = [], []

    def frames(count: int, work: float = 0.005) -> None:
        for _ in range(count):
            pacer.wait()
            begun.append(now[0])
            due.append(pacer.due)
            now[0] += work

    frames(10)
    assert due == pytest.approx([100.0 + number * FRAME_SECONDS for number in range(10)], abs=1e-9)
    assert begun == due  # on time: each frame made when it is due
    frames(1, work=FRAME_SECONDS + 0.05)  # a frame's own long step is no busy host
    frames(5)
    assert pacer.ahead == 0.0
    oversleep.append(2 * LATE_SECONDS)  # woken late
    frames(CALM_FRAMES + 10)
    ahead = [when - begun_at for when, begun_at in zip(due, begun)]
    assert ahead[16] < 0 < ahead[17] < ahead[18] < 0.04  # the late one; back to back until 0.04 s ahead ...
    assert ahead[20 : 15 + CALM_FRAMES] == pytest.approx([0.04] * (CALM_FRAMES - 5), abs=1e-9)  # ... then kept so
    assert ahead[-5:] == pytest.approx([0.0] * 5, abs=1e-9)  # calm again: when each is due
    oversleep.append(2 * LATE_SECONDS)
    frames(5)
    assert pacer.ahead == 0.04
    now[0] += CALM_FRAMES * FRAME_SECONDS  # a doze: the frames slept through went by on time
    assert pacer.pass_frames(CALM_FRAMES) >= CALM_FRAMES - 3
    frames(1)
    assert pacer.ahead == 0.0
    assert ServedFrontend(lambda message: None).shown_at is None  # not ahead: what is sent goes at once
    lockstep, _ = served(lockstep=True)
    assert lockstep.shown_at is None


def frames_counted(machine):
    return int.from_bytes(machine.memory[sysvars.FRAMES : sysvars.FRAMES + 3].tobytes(), "little")


def test_a_session_waiting_for_a_key_sleeps_through_idle_frames_and_counts_them():
    sent = []
    frontend = ServedFrontend(sent.append)  # paced on the host's clock
    machine = Spectrum(frontend)
    machine.wait_frame(awaiting_key=True)
    sent.clear()
    counted, presented = frames_counted(machine), frontend.frames_presented
    assert machine.wait_frames_for_key(5) == 5
    assert machine.frame_count == 6 and frames_counted(machine) == counted + 5  # the interrupt counted each
    assert frontend.frames_presented == presented + 1 and sent == []  # one frame shown: nothing had changed
    frontend.receive(held("a"))  # a key ends the doze: the next frame sees it
    assert machine.wait_frames_for_key(250) < 250 and machine.keys_held == {"a"}
    frontend.receive(held())
    machine.wait_frame()
    threading.Timer(0.1, machine.wake).start()  # news from another thread ends it too
    assert machine.wait_frames_for_key(250) < 250


def test_a_doze_ends_at_the_frame_a_flash_swaps_and_never_outside_a_paced_session():
    sent = []
    machine = Spectrum(ServedFrontend(sent.append))
    machine.print_at(0, 0, "X", flash=1)
    machine.wait_frame(awaiting_key=True)
    sent.clear()
    passed = machine.wait_frames_for_key(40)
    assert machine.frame_count == 16 and passed == 15
    assert [wire.HEADER.unpack_from(message)[1] for message in sent if isinstance(message, bytes)] == [16]
    lockstep, _ = served(lockstep=True)
    lockstep.receive(held(frame=1))
    for frontend in (HeadlessFrontend(["a"]), lockstep):
        other = Spectrum(frontend)
        assert other.wait_frames_for_key(10) == 1 and other.frame_count == 1


def test_the_pacer_counts_the_frames_slept_through_and_the_wait_until_a_later_one():
    now = [50.0]
    pacer = Pacer(clock=lambda: now[0], sleep=lambda seconds: None)
    assert pacer.pass_frames(10) == 0 and pacer.seconds_until(3) == 0.0  # no frame yet
    pacer.wait()
    assert pacer.seconds_until(3) == pytest.approx(4 * FRAME_SECONDS)
    now[0] += 2.5 * FRAME_SECONDS
    assert pacer.pass_frames(10) == 2
    assert pacer.seconds_until(0) == pytest.approx(0.5 * FRAME_SECONDS)  # the next frame is the 3rd
    now[0] += 100 * FRAME_SECONDS
    assert pacer.pass_frames(10) == 10


def test_a_border_striped_within_a_frame_reaches_the_terminal_run_by_run():
    sent = []
    frontend = ServedFrontend(sent.append, pacer=NoWaiting())
    machine = Spectrum(frontend)
    # a pilot tone's stripes, say, stepping mid-line, and a frame of a program's many changes (the
    # runs' count beyond a byte; the last run in the picture's last cell)
    pilot = tuple((cell, 2 + 3 * (number % 2)) for number, cell in enumerate(range(0, render.BORDER_CELLS, 387)))
    many = tuple((cell, cell % 7 + 1) for cell in range(render.BORDER_CELLS - 300, render.BORDER_CELLS))
    for stripes in (pilot, ((0, 4),) + many):
        machine.border_runs = stripes  # as the ROM machine keeps them while it loads a tape
        machine.wait_frame()
    machine.border_runs = None
    machine.border = 1
    machine.wait_frame()
    terminal = wire.Terminal()
    frames = [message for message in sent if isinstance(message, bytes)]
    assert len(frames) == 3
    for message, stripes in zip(frames, (pilot, ((0, 4),) + many)):
        terminal.receive(message)
        assert terminal.border_runs == stripes and render.border_of(terminal) == stripes
        assert terminal.border == stripes[-1][1]
    terminal.receive(frames[2])
    assert terminal.border_runs is None and render.border_of(terminal) == 1
