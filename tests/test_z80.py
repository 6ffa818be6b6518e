"""The Z80 under the oracle: SkoolKit's C simulator, its Python one when the C extension is missing,
and instructions stepped one by one if the C loop ever stops taking our call: all run the ROM alike."""

import subprocess
import sys

import pytest
from skoolkit import CSimulator
from skoolkit.simulator import Simulator

from spectrum import hardware, z80
from spectrum.oracle import WAIT_KEY, Oracle
from spectrum.rom import ROM

pytestmark = pytest.mark.rom  # every test here runs the genuine ROM
POWER_ON = ROM + bytes(49152)
LISTING = '10 PRINT AT 2,2;"FALLBACK"; INK 2;7/3\n20 BEEP .02,5: LET a=PEEK 23672\n'


class Ports:
    border = 7

    def __init__(self):
        self.outs = []

    def read_port(self, registers, port):
        return 0xFF

    def write_port(self, registers, port, value, *rest):
        self.outs.append((registers[z80.T], value))


def boot(simulator, monkeypatch, c_loop: bool = True) -> tuple:
    monkeypatch.setattr(z80, "_c_trace_checked", None if c_loop else False)
    machine = z80.Z80(POWER_ON, simulator=simulator)
    ports = Ports()
    machine.set_tracer(ports)
    machine.run(stop=WAIT_KEY, until=3 * 3_500_000)  # the editor's first key wait
    assert machine.registers[z80.PC] == WAIT_KEY
    machine.run(until=machine.registers[z80.T] + 5 * hardware.FRAME_T_STATES)  # five frames of interrupts
    return bytes(machine.memory), list(machine.registers), ports.outs


def test_the_rom_boots_alike_on_the_c_and_python_simulators_and_stepped(monkeypatch):
    c_loop = boot(CSimulator, monkeypatch)
    assert boot(Simulator, monkeypatch) == c_loop
    assert boot(CSimulator, monkeypatch, c_loop=False) == c_loop
    frames = c_loop[0][23672] + 256 * c_loop[0][23673]
    assert frames >= 5  # the interrupts ran


def test_registers_are_numbered_as_the_simulator_names_them():
    named = {
        "A": 1,
        "F": 2,
        "B": 3,
        "C": 4,
        "D": 5,
        "E": 6,
        "H": 7,
        "L": 8,
        "IXh": 9,
        "IXl": 10,
        "IYh": 11,
        "IYl": 12,
        "SP": 13,
        "I": 14,
        "R": 15,
        "PC": 16,
    }
    for simulator in (CSimulator, Simulator):
        registers = simulator(bytearray(65536), named, {"tstates": 17, "iff": 1, "im": 2}, {}).registers
        assert [registers[getattr(z80, name)] for name in named] == list(named.values())
        assert (registers[z80.T], registers[z80.IFF], registers[z80.IM]) == (17, 1, 2)


def test_without_the_c_extension_the_oracle_runs_on_the_python_simulator():
    probe = (
        "import sys\n"
        "class NoExtension:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name in ('skoolkit.csimulator', 'skoolkit.ccmiosimulator'):\n"
        "            raise ImportError(name + ' is not built here')\n"
        "sys.meta_path.insert(0, NoExtension())\n"
        "from spectrum import z80\n"
        "from spectrum.oracle import Oracle\n"
        "assert z80.CSimulator is None\n"
        f"result = Oracle().run({LISTING!r})\n"
        "print(result.report, result.display.hex(), result.edges, result.variables)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result = Oracle().run(LISTING)
    assert done.stdout.strip() == f"{result.report} {result.display.hex()} {result.edges} {result.variables}"
    assert result.report.startswith("0 OK") and result.edges
