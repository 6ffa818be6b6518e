"""Shuffle the 11-Up Patience pack for one seed on the real ROM and in the port, side by side.

The command lives in `games.patience.replay_shuffle`: `python tools/replay_shuffle.py --help`.
"""

import sys

from games.patience.replay_shuffle import main

if __name__ == "__main__":
    sys.exit(main())
