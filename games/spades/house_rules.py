"""A table's house rules: the one rules object that the referee, the computer players and the screen
all read (pure: no I/O).

The full game's scoring is `full_rules`' with these chosen when the table is made:

- `game_to`: a partnership with this many points (100-1000) after a hand ends the game; one that
  falls to `-game_to` / 2.5 (-200 in a game to 500) ends it too;
- `bags` and `bag_penalty`: every `bags` tricks over a partnership's contract (5-15) cost
  `bag_penalty` points (0-200);
- `nil`: what a nil made scores and a nil broken loses (50, 100 or 200; 0: nil may not be bid);
  a blind nil is worth twice as much;
- `blind_nil`: a player whose partnership trails by 100 or more may bid nil before seeing its cards;
- `ten_for_200`: a partnership's contract of 10 or more scores double (20 a trick bid), made or set;
- `minimum_bid`: a partnership's contract (its bids other than nil) is at least this (0: none), so
  the second of a partnership to bid may not leave it short;

and `no_bids` plays the seed's game instead (no bidding, no partners, most tricks wins the hand),
to which none of the above applies. The table's idle times: `turn_seconds` is a person's time to
move at a served table (a computer plays for them then; they are warned `WARN_BEFORE` seconds
before), and `away_seconds` how long the seat of a person whose connection has gone is held for
them before a computer plays it.

`HouseRules()` is the game as played before house rules: to 500, 10 bags for 100, nil 100, a
contract of any size, a minute to move.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

GAME_TO_CHOICES = (100, 150, 200, 250, 300, 400, 500, 600, 700, 800, 900, 1000)
BAGS_CHOICES = tuple(range(5, 16))
BAG_PENALTY_CHOICES = (0, 50, 100, 150, 200)
NIL_CHOICES = (0, 50, 100, 200)
MINIMUM_BID_CHOICES = (0, 2, 3, 4, 5, 6)
TURN_CHOICES = (20, 30, 60, 90, 120, 300)
AWAY_CHOICES = (30, 60, 120, 300)
WARN_BEFORE = 15.0  # seconds: a person is warned this long before a computer moves for them
LOSING_SHARE = 2.5  # the game is also over for a partnership at -game_to / LOSING_SHARE
TEN_FOR_200 = 10  # a contract this big scores double with `ten_for_200`


class RulesRefused(ValueError):
    """House rules that can't be played together, or a value outside its range: the message says
    which, in one line, each option named as a query names it (`said("--")`: as the command line
    does)."""

    def said(self, flag: str = "") -> str:
        return self.args[0].replace("{flag}", flag)

    def __str__(self) -> str:
        return self.said()


def _whole(value, name: str) -> int:
    if type(value) is bool or not isinstance(value, int):
        raise RulesRefused(f"{{flag}}{name} is a whole number, not {value!r}")
    return value


@dataclass(frozen=True)
class HouseRules:
    """The rules a table plays (see the module)."""

    no_bids: bool = False
    game_to: int = 500
    bags: int = 10
    bag_penalty: int = 100
    nil: int = 100
    blind_nil: bool = False
    ten_for_200: bool = False
    minimum_bid: int = 0
    turn_seconds: int = 60
    away_seconds: int = 60

    def __post_init__(self):
        for name, choices in (
            ("game_to", GAME_TO_CHOICES),
            ("bags", BAGS_CHOICES),
            ("bag_penalty", BAG_PENALTY_CHOICES),
            ("nil", NIL_CHOICES),
            ("minimum_bid", MINIMUM_BID_CHOICES),
            ("turn_seconds", TURN_CHOICES),
            ("away_seconds", AWAY_CHOICES),
        ):
            value = _whole(getattr(self, name), OPTION_NAMES[name])
            if value not in choices:
                raise RulesRefused(
                    f"{{flag}}{OPTION_NAMES[name]} is one of {', '.join(map(str, choices))}, not {value}"
                )
        for name in ("no_bids", "blind_nil", "ten_for_200"):
            if type(getattr(self, name)) is not bool:
                raise RulesRefused(f"{{flag}}{OPTION_NAMES[name]} is on or off")
        if self.no_bids and self.scoring_differs():
            raise RulesRefused(f"{{flag}}{self.first_scoring_rule()} is a rule of the full game: add {{flag}}full")
        if self.blind_nil and not self.nil:
            raise RulesRefused("blind nil is a nil: it can't be played with {flag}nil 0 (no nil)")

    # --- what the rules say --------------------------------------------------------------------

    @property
    def full(self) -> bool:
        return not self.no_bids

    @property
    def losing_points(self) -> int:
        """A partnership at or below this after a hand ends the game (and loses it)."""
        return -round(self.game_to / LOSING_SHARE)

    @property
    def blind_nil_points(self) -> int:
        return 2 * self.nil

    @property
    def nil_allowed(self) -> bool:
        return self.nil > 0

    def contract_points(self, contract: int) -> int:
        """What a contract of `contract` tricks scores made (its tricks over are bags, scored apart),
        or loses when set."""
        return (20 if self.ten_for_200 and contract >= TEN_FOR_200 else 10) * contract

    def scoring_differs(self) -> bool:
        """Any rule of the full game's scoring chosen other than as it is by default."""
        return self.first_scoring_rule() is not None

    def first_scoring_rule(self) -> str | None:
        default = HouseRules()
        for name in ("game_to", "bags", "bag_penalty", "nil", "blind_nil", "ten_for_200", "minimum_bid"):
            if getattr(self, name) != getattr(default, name):
                return OPTION_NAMES[name]
        return None

    # --- as said to the players -------------------------------------------------------------------

    def summary(self) -> str:
        """The rules in a few words (a list of tables, a lobby's line), only what differs from the
        usual said beyond the game's length: "to 300, 7 bags, nil 50, 10 for 200"."""
        if self.no_bids:
            return "no bids"
        said = [f"to {self.game_to}"]
        if (self.bags, self.bag_penalty) != (10, 100):
            said.append(f"{self.bags} bags -{self.bag_penalty}")
        if self.nil != 100:
            said.append(f"nil {self.nil}" if self.nil else "no nil")
        if self.blind_nil:
            said.append("blind nil")
        if self.ten_for_200:
            said.append("10 for 200")
        if self.minimum_bid:
            said.append(f"min bid {self.minimum_bid}")
        return ", ".join(said)

    def lines(self) -> list[str]:
        """The rules as a table's first screen says them, a line each (30 characters at most)."""
        if self.no_bids:
            return ["No bids: most tricks wins"]
        lines = [
            f"Full game to {self.game_to}, out {self.losing_points}",
            f"{self.bags} bags cost {self.bag_penalty} points" if self.bag_penalty else "Bags cost nothing",
            (f"Nil {self.nil}, blind nil {self.blind_nil_points}" if self.blind_nil else f"Nil made/lost: {self.nil}")
            if self.nil
            else "No nil bids",
        ]
        extras = []
        if self.ten_for_200:
            extras.append("10 for 200")
        if self.minimum_bid:
            extras.append(f"partners bid {self.minimum_bid}+")
        if extras:
            lines.append(", ".join(extras))
        return lines

    # --- kept, and given --------------------------------------------------------------------------

    def saved(self) -> dict:
        return asdict(self)

    @classmethod
    def from_saved(cls, data) -> "HouseRules":
        """Rules kept by `saved`; ValueError (RulesRefused) for data that is not."""
        if not isinstance(data, dict) or set(data) - {field.name for field in fields(cls)}:
            raise RulesRefused("not the house rules of a table")
        return cls(**data)

    @classmethod
    def of_options(cls, options: dict) -> "HouseRules":
        """The rules that a command line's or a query's options choose (`add_options`' names);
        RulesRefused for rules that can't be played together."""
        chosen = {name: options[option] for name, option in OPTION_KEYS.items() if options.get(option) is not None}
        chosen["no_bids"] = not options.get("full_rules", False)
        return cls(**chosen)


# Each rule's option, as the command line and a query name it (--game-to 300, ?game-to=300)
OPTION_KEYS = {
    "game_to": "game_to",
    "bags": "bags",
    "bag_penalty": "bag_penalty",
    "nil": "nil",
    "blind_nil": "blind_nil",
    "ten_for_200": "ten_for_200",
    "minimum_bid": "minimum_bid",
    "turn_seconds": "turn",
    "away_seconds": "away",
}
OPTION_NAMES = {
    "no_bids": "the no-bid game",
    "game_to": "game-to",
    "bags": "bags",
    "bag_penalty": "bag-penalty",
    "nil": "nil",
    "blind_nil": "blind-nil",
    "ten_for_200": "ten-for-200",
    "minimum_bid": "minimum-bid",
    "turn_seconds": "turn",
    "away_seconds": "away",
}
