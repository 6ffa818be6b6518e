"""Write a BASIC listing (text with zmakebas escapes) as a .tap that autostarts on any Spectrum.

The command lives in `spectrum.make_tap` (installed as `zxcards-tap`): `python tools/make_tap.py --help`.
"""

import sys

from spectrum.make_tap import main

if __name__ == "__main__":
    sys.exit(main())
