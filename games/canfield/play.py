"""Canfield played at the keyboard: the money game with the player's account, or practice."""

from __future__ import annotations

from functools import partial

from spectrum import Spectrum
from spectrum.pointing import Target, Targets

from ..cards import SUIT_SIZE
from ..program import CannotStart
from ..protocol import MoveRefused
from ..drawing import next_key
from . import bank as accounts
from . import screen, targets
from .background import BackgroundSearch
from .deals import FIRST_DEAL, LAST_DEAL, check_deal_number, deck_for
from .difficulty import LEVELS, level_of
from .finder import DealFinder, Found
from .rules import CARD_PAYS, DECK_PRICE, Canfield, Position
from .solver import Solved, Verdict, solve

MOVE_KEYS_HELP = "From S T 1-4 to 1-4 F. P turns"
MONEY_HELP = "N new deal R record BREAK quits"
PRACTICE_HELP = "N new U undo H hint BREAK quits"
OVER_HELP = "V verdict L watch W winnable"  # the first help line once a deal is over
HINT_BUDGET = 20_000  # positions a hint may search: about a second at worst
JUDGE_BUDGET = 100_000  # positions for the record's "could it have been won?" of a deal
JUDGED_AT_ONCE = 20  # older deals judged in the background at the start of a game
THINKING = "Thinking... the hint comes in a moment"
AS_DEALT = "As dealt"
VERDICT_WORDS = {None: "THINKING", Solved.WON: "CAN BE WON", Solved.LOST: "CAN'T BE WON", Solved.UNKNOWN: "UNDECIDED"}
WATCH_FRAMES = 40  # frames each move of a winning line stays on the screen while it is watched (0.8 s)
TURN_FRAMES = 12  # and each turn of the pack on the way to it
FINDING = "Finding a deal the solver can win..."
WINNABLE = "winnable"  # deals of any level the solver has won
WINNABLE_NEWS = {
    True: "Next deals: ones the solver has won, $50 as ever. W: any deal",
    False: "Next deals: any deal. W: winnable ones",
}
PRACTICE_WINNABLE_NEWS = {None: WINNABLE_NEWS[False], WINNABLE: "Next deals: ones the solver has won. W: by level"}


def new_deal_number(machine: Spectrum) -> int:
    """A deal picked as a Spectrum program picks it: RANDOMIZE from the frame counter, then RND."""
    machine.randomize(0)
    return FIRST_DEAL + int(machine.rnd() * (LAST_DEAL - FIRST_DEAL + 1))


# --- sounds ---------------------------------------------------------------------------------


def sound_move(machine: Spectrum) -> None:
    machine.beep(0.02, 14)


def sound_turn(machine: Spectrum) -> None:
    machine.beep(0.01, 30)


def sound_home(machine: Spectrum, cards_home: int) -> None:
    machine.beep(0.04, 12 + cards_home % SUIT_SIZE)  # a suit's run of notes, over again


def sound_refused(machine: Spectrum) -> None:
    machine.beep(0.2, -15)


def sound_won(machine: Spectrum) -> None:
    for pitch in (0, 4, 7, 12, 7, 12, 16, 19, 24):
        machine.beep(0.1, pitch)


def sound_stuck(machine: Spectrum) -> None:
    for pitch in (7, 3, 0, -5):
        machine.beep(0.15, pitch)


def sound_shuffle(machine: Spectrum) -> None:
    for _ in range(12):
        machine.beep(0.008, 40)
        machine.pause(1)


def describe_hint(keys: str) -> str:
    """Words for the first move of a line of key presses."""
    if keys.startswith("p"):
        return "Hint: press P to turn the pack"
    source, target = keys[0].upper(), keys[1].upper()
    return f"Hint: {source} then {target}"


def cards_home_words(count: int) -> str:
    return f"{count} card{'s' * (count != 1)} home"


PLACE_WORDS = {"s": "stock", "t": "talon", "f": "home", "1": "pile 1", "2": "pile 2", "3": "pile 3", "4": "pile 4"}


def describe_move(keys: str) -> str:
    """Words for one move of a line: the turns of the pack it takes, then its source and target."""
    move = keys.lstrip("p")
    turns = len(keys) - len(move)
    before = f"P {turns}x, " if turns > 1 else "P, " if turns else ""
    if not move:
        return before + "a base card goes home"
    source, target = PLACE_WORDS[move[0]], PLACE_WORDS[move[1]]
    return before + (f"{source} home" if move[1] == "f" else f"{source} to {target}")


def verdict_words(label: str, verdict: Verdict | None) -> list[str]:
    """What the solver found, in two sentences: whether it can be won, then how far it got."""
    if verdict is None:
        return [f"{label}: the solver is still looking..."]
    looked = f"{verdict.nodes:,} position{'s' * (verdict.nodes != 1)}"
    if verdict.outcome is Solved.WON:
        level = level_of(verdict) if label == AS_DEALT else None
        return [
            f"{label}: could be won{f' ({level})' if level else ''}.",
            f"The solver won it after {looked}, in {len(verdict.line)} moves.",
        ]
    if verdict.outcome is Solved.LOST:
        return [
            f"{label}: can't be won.",
            f"The solver proved it in {looked}; it got {cards_home_words(verdict.best_home)} at best.",
        ]
    return [
        f"{label}: undecided.",
        f"The solver looked at {looked}; it got {cards_home_words(verdict.best_home)} at best.",
    ]


class Game:
    """A game of Canfield on the machine, one player at the table: the keys, the sounds and the
    screen, for money or in practice.

    The money game and the practice game differ in the attributes and methods up to `say`.
    """

    name: str | None = None
    keys_help = (MOVE_KEYS_HELP, PRACTICE_HELP)

    def __init__(self, machine: Spectrum, thinker=None):
        self.machine = machine
        self.thinker = thinker
        self.game: Canfield | None = None
        self.deal_number = 0
        self.message = ""
        self.refused = False
        self.given_up = False  # the deal was given up: it is over
        self.confirming_give_up = False  # V was pressed once on a live deal
        self.found: Found | None = None  # the deal on the table, when it was dealt as winnable
        self.found_as = ""  # and then what was asked for: WINNABLE or its level
        self._dealt: tuple[int, Position | None] = (0, None)  # `dealt_position`, kept
        self.winnable: str | None = None  # what the next deals are: None any deal, WINNABLE or a level
        self.finder: DealFinder | None = None  # finding them ahead of need
        # the solver's verdicts after a deal, with the record's budget: the deal as dealt, the spot given up
        self.verdicts = BackgroundSearch(partial(solve, budget=JUDGE_BUDGET), thinker)

    def money(self) -> int | None:
        return None

    def verdict_words(self) -> str:
        """What the title bar says about winning this deal."""
        return ""

    def deal(self, number: int, found: Found | None = None) -> None:
        self.game = Canfield(deck_for(number))
        self.deal_number, self.found = number, found
        self.found_as = self.winnable if found is not None else ""
        self.given_up = self.confirming_give_up = False
        sound_shuffle(self.machine)
        if self.game.stuck:
            self.say(f"Deal {number}. No move left, {cards_home_words(self.game.cards_home)}. N deals again")
        elif found is not None:
            self.say(f"Deal {number}. The solver has won it: so can you!")
        else:
            self.say(f"Deal {number}. Good luck!")

    # --- winnable deals ----------------------------------------------------------------------

    def want_winnable(self, kind: str | None) -> None:
        """From the next deal on, deals of `kind` (WINNABLE, a level of LEVELS, or None for any):
        the finder starts looking at once."""
        if kind == self.winnable:
            return
        if self.finder is not None:
            self.finder.close()
            self.finder = None
        self.winnable = kind
        if kind is not None:
            self.finder = DealFinder(
                new_deal_number(self.machine), level=None if kind == WINNABLE else kind, thinker=self.thinker
            )

    def next_winnable(self) -> Found:
        """The next winnable deal: ready at once, but for the first few moments of a game (or of a
        level just chosen), while which the screen says it is looking."""
        found = self.finder.take()
        if found is None:
            self.say(FINDING)
            if self.game is None:  # nothing dealt yet
                screen.draw_waiting(self.machine, FINDING)
            else:
                self.draw()
            while (found := self.finder.take()) is None:
                self.machine.wait_frame()
        return found

    def toggle_winnable(self) -> None:
        """W: winnable deals from the next deal on, or any deal again."""
        self.want_winnable(None if self.winnable else WINNABLE)
        self.say(WINNABLE_NEWS[self.winnable is not None])

    def close(self) -> None:
        """The searches end with the game."""
        self.search.close()
        self.verdicts.close()
        if self.finder is not None:
            self.finder.close()

    # --- the verdict after a deal --------------------------------------------------------------

    def dealt_verdict(self) -> Verdict | None:
        """The solver's verdict on the deal as dealt (asked for in the background when not known)."""
        if self.found is not None:
            return self.found.verdict
        key = ("dealt", self.deal_number)
        verdict = self.verdicts.verdict(key)
        if verdict is None:
            self.verdicts.ask(key, self.dealt_position())
        return verdict

    def dealt_position(self) -> Position:
        """The deal on the table as it was dealt."""
        if self._dealt[0] != self.deal_number:
            self._dealt = (self.deal_number, Canfield(deck_for(self.deal_number)).position)
        return self._dealt[1]

    def gave_up_on_the_way(self) -> bool:
        """The deal was given up after a move: where it was given up is not the deal itself."""
        return self.given_up and self.game.position != self.dealt_position()

    def spot_verdict(self) -> Verdict | None:
        """The solver's verdict from where the deal was given up."""
        key = ("spot", self.game.position)
        verdict = self.verdicts.verdict(key)
        if verdict is None:
            self.verdicts.ask(key, self.game.position)
        return verdict

    def watchable(self) -> tuple[Position, tuple[str, ...], str] | None:
        """(where it starts, the winning line, words for it) of the win to watch, once known: from
        where the deal was given up when it could still be won there, else from the deal."""
        if self.gave_up_on_the_way():
            spot = self.spot_verdict()
            if spot is not None and spot.outcome is Solved.WON:
                return self.game.position, spot.line, "from your spot"
        dealt = self.dealt_verdict()
        if dealt is not None and dealt.outcome is Solved.WON:
            return self.dealt_position(), dealt.line, "from the deal"
        return None

    def verdict_lines(self) -> list[str]:
        """What the verdict screen says of the deal just over, as far as the solver has got."""
        game = self.game
        if game.won:
            ending = "you won it"
        elif self.given_up:
            ending = f"given up, {cards_home_words(game.cards_home)}"
        else:
            ending = f"no move left, {cards_home_words(game.cards_home)}"
        lines = [f"Deal {self.deal_number}: {ending}."]
        if self.found is not None:
            lines.append("It was dealt as one the solver had won.")
        lines += ["", *verdict_words(AS_DEALT, self.dealt_verdict())]
        if self.gave_up_on_the_way():
            lines += ["", *verdict_words("From where you gave up", self.spot_verdict())]
        return lines

    def show_verdict(self) -> None:
        """The verdict screen until a key: L there watches the win; the screen fills in as the
        solver's verdicts come."""
        shown: list[tuple[list[str], str]] = []

        def draw():  # again only when there is news
            watch = self.watchable()
            lines = (self.verdict_lines(), f"L: watch the win {watch[2]}" if watch else "")
            if lines != (shown or [None])[-1]:
                shown.append(lines)
                screen.draw_verdict(self.machine, self.deal_number, *lines)

        self.say("")
        wanted = False  # L was pressed: the win is shown as soon as the solver has found it
        while self.machine.inkey():  # the key that brought the screen up let go first
            self.machine.wait_frame()
        while True:
            draw()
            if wanted and self.watchable() is not None:
                self.watch()
                return
            if wanted and self.verdicts_known():  # no win to show: L was as any other key
                return
            self.machine.wait_frame(awaiting_key=True)
            key = self.machine.inkey().lower()
            if key and key != "l":
                return
            wanted = wanted or key == "l"

    def verdicts_known(self) -> bool:
        """The verdict screen's searches have all ended."""
        return self.dealt_verdict() is not None and (not self.gave_up_on_the_way() or self.spot_verdict() is not None)

    def watch(self) -> None:
        """The solver's winning line played out on the table at a readable pace; any key stops it.
        The deal itself is as it was."""
        watch = self.watchable()
        if watch is None:
            self.say(
                "The solver has no win to show yet"
                if self.dealt_verdict() is None
                else "The solver found no win to show",
                refused=True,
            )
            return
        start, line, words = watch
        shown = Canfield.__new__(Canfield)
        shown.position, shown.selected, shown.history = start, None, []
        keys_help = (f"Watching the win {words}"[: screen.WIDTH], "Any key stops")
        while self.machine.inkey():  # the key that asked for it let go first
            self.machine.wait_frame()
        for number, move in enumerate(line, 1):
            for index, key in enumerate(move):
                shown.press(key)
                if shown.selected is None:
                    last = index == len(move) - 1
                    screen.draw_table(
                        self.machine,
                        screen.TableView(
                            shown,
                            self.deal_number,
                            self.name,
                            self.money(),
                            f"Move {number} of {len(line)}: {describe_move(move)}",
                            False,
                            keys_help,
                        ),
                    )
                    (sound_move if last else sound_turn)(self.machine)
                    self.machine.pause(WATCH_FRAMES if last else TURN_FRAMES)
                    if self.machine.inkey():
                        self.say("Watching stopped: your table again")
                        return
        sound_won(self.machine)
        screen.draw_table(
            self.machine,
            screen.TableView(
                shown,
                self.deal_number,
                self.name,
                self.money(),
                "The solver's win: every card home. Any key",
                False,
                keys_help,
            ),
        )
        next_key(self.machine)
        self.say("That was the solver's win: your table again")

    def verdict_key(self) -> None:
        """V: the verdict of a deal that is over; on a live deal, asked twice, it gives the deal up
        (a deal's verdict is never shown while it is live)."""
        self.game.selected = None
        if self.finished:
            self.show_verdict()
        elif self.confirming_give_up:
            self.give_up()
            self.show_verdict()
        else:
            self.confirming_give_up = True
            self.say("Give up this deal to see its verdict? Press V again")

    def save(self, result: str = accounts.PLAYING) -> None:
        """Keep the position (the money game pays here for the cards gone home)."""

    def give_up(self) -> None:
        """The deal given up: it is over."""
        self.given_up = True
        self.save(accounts.GIVEN_UP)

    def extra_key(self, key: str) -> bool:
        """Keys besides the moves; True when `key` was one of them."""
        return False

    def over_key(self, key: str) -> bool:
        """The keys of every game about a deal's verdict and winnable deals; True when `key` was one."""
        confirming, self.confirming_give_up = self.confirming_give_up, False
        if key == "v":
            self.confirming_give_up = confirming
            self.verdict_key()
        elif key == "l":
            self.game.selected = None
            if self.finished:
                self.watch()
            else:
                self.say("A deal's win is shown once it is over", refused=True)
        elif key == "w":
            self.game.selected = None
            self.toggle_winnable()
        else:
            return False
        return True

    def news(self) -> bool:
        """Take in what the background search has found; True when the screen must show it."""
        return False

    def say(self, message: str, refused: bool = False) -> None:
        self.message, self.refused = message, refused
        if refused:
            sound_refused(self.machine)

    def draw(self) -> None:
        keys_help = (OVER_HELP, self.keys_help[1]) if self.finished else self.keys_help
        self.machine.targets = targets.targets(self.game, practice=self.money() is None)
        screen.draw_table(
            self.machine,
            screen.TableView(
                self.game,
                self.deal_number,
                self.name,
                self.money(),
                self.message,
                self.refused,
                keys_help,
                self.verdict_words(),
                self.deal_tag(),
                over=self.given_up,
            ),
        )

    def deal_tag(self) -> str:
        """A word under the talon for a deal dealt as winnable: its level when one was asked for."""
        return self.found_as.upper()

    def redraw_on_news(self) -> None:
        if self.news():
            self.draw()

    @property
    def finished(self) -> bool:
        return self.game.won or self.game.stuck or self.given_up

    def play(self) -> None:
        """Take keys until BREAK, saving every change as it happens; the screen keeps showing what
        the background search finds while it waits for a key. However the game ends, the search
        ends with it."""
        try:
            self.begin()
            while True:
                self.news()
                self.draw()
                key = next_key(self.machine, self.redraw_on_news)
                if not self.over_key(key) and not self.extra_key(key):
                    self.move_key(key)
        finally:
            self.close()

    def begin(self) -> None:
        """What a table does before its first key."""

    def move_key(self, key: str) -> None:
        if self.finished:
            self.say("This deal is over: N deals again", refused=True)
            return
        before = self.game.position
        try:
            self.game.press(key)
        except MoveRefused as refusal:
            self.say(refusal.reason, refused=True)
            return
        if self.game.selected:
            self.say(SELECTED_WORDS[self.game.selected] + " picked: to 1-4 or F?")
        else:
            self.after_change(before.cards_home, turned=key == "p")

    def after_change(self, cards_home_before: int, turned: bool) -> None:
        """Sounds, the message and the save after the position changed."""
        gone_home = self.game.cards_home - cards_home_before
        (sound_turn if turned else sound_move)(self.machine)
        for count in range(cards_home_before + 1, self.game.cards_home + 1):
            sound_home(self.machine, count)
        if self.game.won:
            self.save(accounts.WON)
            self.say("You win: every card is home! N deals again")
            sound_won(self.machine)
        elif self.game.stuck:
            self.save(accounts.STUCK)
            self.say(f"No move left, {cards_home_words(self.game.cards_home)}. N deals again")
            sound_stuck(self.machine)
        else:
            self.save()
            news = cards_home_words(gone_home) if gone_home else ""
            if news and self.money() is not None:
                news += f": ${CARD_PAYS * gone_home} paid"
            self.say(news)


SELECTED_WORDS = {"s": "Stock card", "t": "Talon card", "1": "Pile 1", "2": "Pile 2", "3": "Pile 3", "4": "Pile 4"}


class PracticeGame(Game):
    """No money: undo and hints allowed. The solver looks at every position in the background as
    soon as it is on the table, so a hint is usually ready when asked for; once a hint has been
    asked for, the title bar says whether the deal can still be won (not before: a deal is not
    spoilt before the player wants to know). W goes round winnable deals of any level, of each
    level, and any deal."""

    def __init__(self, machine: Spectrum, number: int | None, thinker=None, winnable: str | None = None):
        super().__init__(machine, thinker)
        self.search = BackgroundSearch(partial(solve, budget=HINT_BUDGET), thinker)
        self.asked = None  # the position the search was last asked about
        self.outcome_shown: Solved | None = None
        self.hint_wanted = False
        self.verdict_asked = False  # a hint was asked for this deal: the title bar says its verdict
        self.first_number = number  # the deal asked for, if one was
        self.want_winnable(winnable)

    def begin(self) -> None:
        """The first deal (inside `play`, so that however it ends the searches end with it)."""
        if self.first_number is None:
            self.new_deal()
        else:
            self.deal(self.first_number)

    def new_deal(self) -> None:
        """A new deal: a winnable one (of the level chosen) when such are wanted."""
        if self.winnable is None:
            self.deal(new_deal_number(self.machine))
        else:
            found = self.next_winnable()
            self.deal(found.number, found)

    def deal(self, number: int, found: Found | None = None) -> None:
        self.verdict_asked = False
        super().deal(number, found)

    def toggle_winnable(self) -> None:
        """W in practice goes round: winnable deals, each level, and any deal again."""
        choices = [None, WINNABLE, *LEVELS]
        kind = choices[(choices.index(self.winnable) + 1) % len(choices)]
        self.want_winnable(kind)
        self.say(
            PRACTICE_WINNABLE_NEWS[kind]
            if kind in PRACTICE_WINNABLE_NEWS
            else f"Next deals: {kind} ones the solver has won. W: next"
        )

    def verdict_words(self) -> str:
        return "" if self.finished or not self.verdict_asked else VERDICT_WORDS[self.outcome_shown]

    def news(self) -> bool:
        position = self.game.position
        if position != self.asked:
            self.asked, self.hint_wanted = position, False
            self.search.ask(position, position, alone=True)
        verdict = self.search.verdict(position)
        outcome = verdict.outcome if verdict else None
        changed, self.outcome_shown = outcome != self.outcome_shown, outcome
        if verdict and self.hint_wanted:
            self.hint_wanted = False
            self.tell_hint(verdict)
            changed = True
        return changed

    def extra_key(self, key: str) -> bool:
        if key == "n":
            self.new_deal()
        elif key == "u":
            if self.given_up:
                self.say("This deal was given up: N deals again", refused=True)
                return True
            try:
                self.game.undo()
            except MoveRefused as refusal:
                self.say(refusal.reason, refused=True)
            else:
                sound_move(self.machine)
                self.say("Move taken back")
        elif key == "h":
            self.hint()
        else:
            return False
        return True

    def hint(self) -> None:
        self.game.selected = None
        self.verdict_asked = True
        if self.finished:
            self.say("This deal is over: N deals again", refused=True)
            return
        verdict = self.search.verdict(self.game.position)
        if verdict is None:
            self.hint_wanted = True
            self.say(THINKING)
        else:
            self.tell_hint(verdict)

    def tell_hint(self, verdict: Verdict) -> None:
        if verdict.outcome is Solved.WON:
            self.say(describe_hint(verdict.line[0]) + " (this deal can be won)")
        elif verdict.outcome is Solved.LOST:
            self.say("No way to win from here. Undo, or make the most of it", refused=True)
        else:
            self.say("No sure win found in time. Try the moves you like best", refused=True)


class MoneyGame(Game):
    """The casino game: every deck bought and every card home paid on the player's account. The
    solver judges each deal as dealt in the background, for the record (never shown during it)."""

    keys_help = (MOVE_KEYS_HELP, MONEY_HELP)

    def __init__(
        self,
        machine: Spectrum,
        bank: accounts.Bank,
        account: accounts.Account,
        thinker=None,
        finder: DealFinder | None = None,
    ):
        super().__init__(machine, thinker)
        self.bank, self.account = bank, account
        self.name = account.name
        self.deal_id = 0
        self.confirming_new_deal = False
        self.damaged: int | None = None  # the number of a saved deal just set aside, to be told
        self.search = self.verdicts  # judging each deal for the record, under the deal's id
        self.judging: set[int] = set()  # deal ids whose verdict is on its way
        if finder is not None:  # winnable deals, looked for since the game started
            self.winnable, self.finder = WINNABLE, finder

    def begin(self) -> None:
        """The older deals judged in the background; the unfinished deal carried on, or one bought."""
        for deal_id, number in reversed(self.bank.unjudged_deals(self.account)[:JUDGED_AT_ONCE]):
            self.judge(deal_id, number)
        unfinished = self.bank.unfinished_deal(self.account)
        if not (unfinished and self.carry_on(unfinished)):
            self.buy_deal()

    def judge(self, deal_id: int, number: int) -> None:
        self.judging.add(deal_id)
        self.search.ask(deal_id, Canfield(deck_for(number)).position)

    def news(self) -> bool:
        self.keep_verdicts()
        return False

    def keep_verdicts(self) -> bool:
        """Record the verdicts the solver has reached; True when there were any."""
        kept = False
        for deal_id in list(self.judging):
            verdict = self.search.take(deal_id)
            if verdict is not None:
                self.judging.discard(deal_id)
                self.bank.judge(deal_id, verdict.outcome.value, level_of(verdict))
                kept = True
        return kept

    def show_record(self) -> None:
        """The record screen until a key is pressed, brought up to date as verdicts come in."""

        def draw():
            screen.draw_record(
                self.machine,
                self.account.name,
                self.bank.deals(self.account),
                self.money(),
                self.bank.fresh_starts(self.account),
            )

        self.keep_verdicts()
        draw()
        self.machine.targets = Targets((Target("back", ("ENTER",), row=0, rows=24, cols=32),))
        next_key(self.machine, lambda: self.keep_verdicts() and draw())

    def carry_on(self, record: accounts.DealRecord) -> bool:
        """Take up the deal the player left; a record that can't be read is closed and set aside
        instead (False), so that it can't lock the player out."""
        try:
            self.game = Canfield.from_state(record.position)
        except (ValueError, KeyError, TypeError):
            self.bank.set_aside(self.account, record)
            self.damaged = record.number
            return False
        self.deal_id, self.deal_number = record.id, record.number
        self.found_as = WINNABLE if record.winnable else ""
        if record.verdict is None:
            self.judge(record.id, record.number)
        if self.game.stuck:  # left as playing by an older zxcards
            self.save(accounts.STUCK)
            self.say(
                f"Your deal {record.number}: no move left, {cards_home_words(self.game.cards_home)}. N deals again"
            )
        else:
            self.say(f"Welcome back, {self.account.name}: your deal {record.number} goes on")
        return True

    def money(self) -> int:
        return self.bank.balance(self.account)

    def buy_deal(self) -> None:
        fresh = self.bank.balance(self.account) < DECK_PRICE
        found = self.next_winnable() if self.winnable else None
        self.deal(found.number if found else new_deal_number(self.machine), found)
        stuck = self.game.stuck
        if found is None:
            self.deal_id = self.bank.buy_deck(
                self.account,
                self.deal_number,
                self.game.state(),
                self.game.cards_home,
                accounts.STUCK if stuck else accounts.PLAYING,
            )
            self.judge(self.deal_id, self.deal_number)
        else:  # judged already: the solver won it before it was dealt
            self.deal_id = self.bank.buy_deck(
                self.account,
                self.deal_number,
                self.game.state(),
                self.game.cards_home,
                accounts.STUCK if stuck else accounts.PLAYING,
                winnable=True,
                verdict=found.verdict.outcome.value,
                difficulty=found.level,
            )
        news = [f"Deal {self.damaged} was damaged: set aside."] if self.damaged is not None else []
        if fresh:
            news.append("A fresh $500 from the house.")
        news.append(f"Deal {self.deal_number}: ${DECK_PRICE} paid.")
        if stuck:
            news.append(f"No move left, {cards_home_words(self.game.cards_home)}. N deals again")
        elif len(news) == 1:
            news.append("Good luck!")
        self.damaged = None
        self.say(" ".join(news).rstrip("."))

    def over_key(self, key: str) -> bool:
        if key in ("v", "l", "w"):
            self.confirming_new_deal = False
        return super().over_key(key)

    def save(self, result: str = accounts.PLAYING) -> None:
        self.bank.record(self.account, self.deal_id, self.game.state(), self.game.cards_home, result)

    def extra_key(self, key: str) -> bool:
        confirming, self.confirming_new_deal = self.confirming_new_deal, False
        if key == "n":
            if self.finished:
                self.buy_deal()
            elif confirming:
                self.save(accounts.GIVEN_UP)
                self.buy_deal()
            else:
                self.game.selected = None
                self.confirming_new_deal = True
                self.say(f"Give up this deal? A new one costs ${DECK_PRICE}: press N again")
        elif key == "r":
            self.game.selected = None
            self.show_record()
            self.say("")
        elif key in ("u", "h"):
            self.say("Undo and hints are for practice games only", refused=True)

        elif confirming:
            self.say("Carry on with this deal")
        else:
            return False
        return True


STOP_KEYWORD = "\xe2"  # SYMBOL SHIFT + A


def ask_name(machine: Spectrum, bank: accounts.Bank) -> accounts.Account | None:
    """The player's account, held for this game, asking for the name until it is one that no
    other zxcards is playing; None when STOP is typed, as STOP leaves an INPUT on the Spectrum."""
    message, refused = "Type your name and press ENTER. STOP (SYMBOL+A) or Esc leaves", False
    while True:
        screen.draw_title(machine, message, refused)
        machine.targets = Targets(letters=True)  # a name is typed: a page shows its keyboard
        name = machine.input("Your name? ")
        if name.strip() == STOP_KEYWORD:
            return None
        try:
            account = bank.open_account(name)
            bank.take_seat(account)
            return account
        except (accounts.NameRefused, accounts.SeatTaken) as error:
            message, refused = str(error), True
            sound_refused(machine)


def bank_for(store, data_dir, owner: str | None) -> accounts.Bank:
    """The bank a program plays with: in the database several servers share when the host gives
    one (`store`, a `games.store.Store` with a `url`), else in SQLite in `data_dir`."""
    if store is not None and store.url is not None:
        from .bank_postgres import PostgresBank

        return PostgresBank(store.url, owner)
    return accounts.Bank(data_dir, owner)


def run(
    machine: Spectrum,
    *,
    data_dir=None,
    deal: int | None = None,
    practice: bool = False,
    owner: str | None = None,
    thinker=None,
    store=None,
    winnable: bool = False,
    difficulty: str | None = None,
) -> None:
    """Play Canfield until BREAK (or STOP at the name). A deal number (1-65535) replays that deal,
    as practice: a known deal is no bet. `data_dir` is where the accounts are kept; an `owner`
    opens only its own accounts there (`bank.Bank`); a `thinker` (a server's worker processes)
    works the solver's searches out away from the machine's thread; a `store` (a server's, shared by
    several servers) keeps the accounts instead of `data_dir`. `winnable` deals only deals the
    solver has won (found in the background ahead of need), in either game; a `difficulty` (one of
    LEVELS) is practice with winnable deals of that level. CannotStart, before anything is drawn,
    for a deal number out of range, a level unknown, a deal number with winnable deals or a level,
    a data folder given to practice (which keeps nothing), or accounts that can't be used."""
    if deal is not None:
        refusal = check_deal_number(deal)
        if refusal:
            raise CannotStart(refusal)
    if difficulty is not None and difficulty not in LEVELS:
        raise CannotStart(f"The levels are {', '.join(LEVELS)}")
    if deal is not None and (winnable or difficulty is not None):
        raise CannotStart("--deal names the deal: leave out --winnable and --difficulty")
    practice = practice or deal is not None or difficulty is not None
    if practice and data_dir is not None:
        raise CannotStart("--data-dir is where the accounts are kept: practice keeps nothing, leave it out")
    if practice:
        screen.prepare(machine)
        PracticeGame(machine, deal, thinker, difficulty or (WINNABLE if winnable else None)).play()
        return
    bank = bank_for(store, data_dir, owner)
    finder = None
    try:
        bank.check()
        screen.prepare(machine)
        if winnable:  # looking while the name is typed: the first deal is ready when it is wanted
            finder = DealFinder(new_deal_number(machine), thinker=thinker)
        account = ask_name(machine, bank)
        if account is not None:
            MoneyGame(machine, bank, account, thinker, finder).play()
    finally:
        if finder is not None:
            finder.close()
        bank.close()
