"""Show the UDGs a BASIC listing defines: its DATA bytes poked into UDG A onwards, as a PNG and as text art.

The command lives in `spectrum.udg_art` (installed as `zxcards-udgs`): `python tools/udg_art.py --help`.
"""

import sys

from spectrum.udg_art import main

if __name__ == "__main__":
    sys.exit(main())
