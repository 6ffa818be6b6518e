"""T-states of the ROM's routines, item by item (see `spectrum.timing`), as measured on the
genuine ROM by ``tools/measure_costs.py``, which writes this table."""

T_STATES: dict[str, int] = {}
