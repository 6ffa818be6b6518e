"""The listing as a .tap: it loads under SkoolKit's simulated LOAD, autostarts at the UDG loader
and shows the title as the port draws it."""

import subprocess
import sys
from pathlib import Path

import pytest
from skoolkit import CSimulator, tap2sna
from skoolkit.simutils import T, from_snapshot
from skoolkit.snapshot import Snapshot

from games.patience import play
from spectrum import Spectrum, sysvars
from spectrum.hardware import T_STATES_PER_SECOND
from spectrum.frontends import HeadlessFrontend, ScriptExhausted
from spectrum.oracle import rows_of

pytestmark = pytest.mark.rom  # every test here runs the genuine ROM

ROOT = Path(__file__).resolve().parent.parent
LISTING = ROOT / "games" / "patience" / "patience.bas"
WAIT_KEY = 0x15DE
TITLE_SECONDS = 25  # the typed-out rules take 19 s; then the title waits in PAUSE 0


class NoKeys:
    """Ports for the simulator: no key held, speaker and border ignored."""

    border = 7

    def read_port(self, registers, port):
        return 0xBF

    def write_port(self, registers, port, value, *rest):
        pass


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tape")
    tap, z80 = folder / "patience.tap", folder / "patience.z80"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tools" / "make_tap.py"),
            str(LISTING),
            "--name",
            "patience",
            "--line",
            "1760",
            "-o",
            str(tap),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    tap2sna.main([str(tap), str(z80)])
    return tap, Snapshot.get(str(z80))


def test_tape_holds_the_program_saved_with_line_1760(loaded):
    tap, _ = loaded
    header = tap.read_bytes()[2:21]
    assert header[:12] == b"\x00\x00patience  "  # flag, type 0 (program), the name
    assert int.from_bytes(header[14:16], "little") == 1760


def test_tape_autostarts_into_the_title(loaded):
    _, snapshot = loaded
    simulator = from_snapshot(CSimulator, snapshot)
    simulator.set_tracer(NoKeys())
    simulator.trace(
        None,
        WAIT_KEY,
        0,
        simulator.registers[T] + TITLE_SECONDS * T_STATES_PER_SECOND,
        True,
        None,
        None,
        None,
        None,
        None,
    )
    memory = simulator.memory
    assert memory[sysvars.PPC] + 256 * memory[sysvars.PPC + 1] == 1670  # PAUSE 0: "Press any key"
    machine = Spectrum(HeadlessFrontend())
    play.start(machine, 1760)
    play.load_udgs(machine)
    with pytest.raises(ScriptExhausted):
        play.title(machine)
    assert rows_of(memory) == rows_of(machine.memory)
