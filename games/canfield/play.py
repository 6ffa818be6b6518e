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
from .rules import CARD_PAYS, DECK_PRICE, Canfield
from .solver import Solved, Verdict, solve

MOVE_KEYS_HELP = "From S T 1-4 to 1-4 F. P turns"
MONEY_HELP = "N new deal R record BREAK quits"
PRACTICE_HELP = "N new U undo H hint BREAK quits"
HINT_BUDGET = 20_000  # positions a hint may search: about a second at worst
JUDGE_BUDGET = 100_000  # positions for the record's "could it have been won?" of a deal
JUDGED_AT_ONCE = 20  # older deals judged in the background at the start of a game
THINKING = "Thinking... the hint comes in a moment"
VERDICT_WORDS = {None: "THINKING", Solved.WON: "CAN BE WON", Solved.LOST: "CAN'T BE WON", Solved.UNKNOWN: "UNDECIDED"}


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


class Game:
    """A game of Canfield on the machine, one player at the table: the keys, the sounds and the
    screen, for money or in practice.

    The money game and the practice game differ in the attributes and methods up to `say`.
    """

    name: str | None = None
    keys_help = (MOVE_KEYS_HELP, PRACTICE_HELP)

    def __init__(self, machine: Spectrum):
        self.machine = machine
        self.game: Canfield | None = None
        self.deal_number = 0
        self.message = ""
        self.refused = False

    def money(self) -> int | None:
        return None

    def verdict_words(self) -> str:
        """What the title bar says about winning this deal."""
        return ""

    def deal(self, number: int) -> None:
        self.game = Canfield(deck_for(number))
        self.deal_number = number
        sound_shuffle(self.machine)
        if self.game.stuck:
            self.say(f"Deal {number}. No move left, {cards_home_words(self.game.cards_home)}. N deals again")
        else:
            self.say(f"Deal {number}. Good luck!")

    def save(self, result: str = accounts.PLAYING) -> None:
        """Keep the position (the money game pays here for the cards gone home)."""

    def extra_key(self, key: str) -> bool:
        """Keys besides the moves; True when `key` was one of them."""
        return False

    def news(self) -> bool:
        """Take in what the background search has found; True when the screen must show it."""
        return False

    def say(self, message: str, refused: bool = False) -> None:
        self.message, self.refused = message, refused
        if refused:
            sound_refused(self.machine)

    def draw(self) -> None:
        self.machine.targets = targets.targets(self.game, practice=self.money() is None)
        screen.draw_table(self.machine, screen.TableView(
            self.game, self.deal_number, self.name, self.money(), self.message, self.refused, self.keys_help,
            self.verdict_words()))

    def redraw_on_news(self) -> None:
        if self.news():
            self.draw()

    @property
    def finished(self) -> bool:
        return self.game.won or self.game.stuck

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
                if not self.extra_key(key):
                    self.move_key(key)
        finally:
            self.search.close()

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


SELECTED_WORDS = {"s": "Stock card", "t": "Talon card", "1": "Pile 1", "2": "Pile 2", "3": "Pile 3",
                  "4": "Pile 4"}


class PracticeGame(Game):
    """No money: undo and hints allowed. The solver looks at every position in the background as
    soon as it is on the table, so a hint is usually ready when asked for; once a hint has been
    asked for, the title bar says whether the deal can still be won (not before: a deal is not
    spoilt before the player wants to know)."""

    def __init__(self, machine: Spectrum, number: int, thinker=None):
        super().__init__(machine)
        self.search = BackgroundSearch(partial(solve, budget=HINT_BUDGET), thinker)
        self.asked = None  # the position the search was last asked about
        self.outcome_shown: Solved | None = None
        self.hint_wanted = False
        self.verdict_asked = False  # a hint was asked for this deal: the title bar says its verdict
        self.deal(number)

    def deal(self, number: int) -> None:
        self.verdict_asked = False
        super().deal(number)

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
            self.deal(new_deal_number(self.machine))
        elif key == "u":
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

    def __init__(self, machine: Spectrum, bank: accounts.Bank, account: accounts.Account, thinker=None):
        super().__init__(machine)
        self.bank, self.account = bank, account
        self.name = account.name
        self.deal_id = 0
        self.confirming_new_deal = False
        self.damaged: int | None = None  # the number of a saved deal just set aside, to be told
        self.search = BackgroundSearch(partial(solve, budget=JUDGE_BUDGET), thinker)
        self.judging: set[int] = set()  # deal ids whose verdict is on its way

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
                self.bank.judge(deal_id, verdict.outcome.value)
                kept = True
        return kept

    def show_record(self) -> None:
        """The record screen until a key is pressed, brought up to date as verdicts come in."""
        def draw():
            screen.draw_record(self.machine, self.account.name, self.bank.deals(self.account), self.money(),
                               self.bank.fresh_starts(self.account))

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
        if record.verdict is None:
            self.judge(record.id, record.number)
        if self.game.stuck:  # left as playing by an older zxcards
            self.save(accounts.STUCK)
            self.say(f"Your deal {record.number}: no move left, {cards_home_words(self.game.cards_home)}. "
                     "N deals again")
        else:
            self.say(f"Welcome back, {self.account.name}: your deal {record.number} goes on")
        return True

    def money(self) -> int:
        return self.bank.balance(self.account)

    def buy_deal(self) -> None:
        fresh = self.bank.balance(self.account) < DECK_PRICE
        self.deal(new_deal_number(self.machine))
        stuck = self.game.stuck
        self.deal_id = self.bank.buy_deck(self.account, self.deal_number, self.game.state(), self.game.cards_home,
                                          accounts.STUCK if stuck else accounts.PLAYING)
        self.judge(self.deal_id, self.deal_number)
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


def run(machine: Spectrum, *, data_dir=None, deal: int | None = None, practice: bool = False,
        owner: str | None = None, thinker=None, store=None) -> None:
    """Play Canfield until BREAK (or STOP at the name). A deal number (1-65535) replays that deal,
    as practice: a known deal is no bet. `data_dir` is where the accounts are kept; an `owner`
    opens only its own accounts there (`bank.Bank`); a `thinker` (a server's worker processes)
    works the solver's searches out away from the machine's thread; a `store` (a server's, shared by
    several servers) keeps the accounts instead of `data_dir`. CannotStart,
    before anything is drawn, for a deal number out of range, a data folder given to practice
    (which keeps nothing), or accounts that can't be used."""
    if deal is not None:
        refusal = check_deal_number(deal)
        if refusal:
            raise CannotStart(refusal)
    if (practice or deal is not None) and data_dir is not None:
        raise CannotStart("--data-dir is where the accounts are kept: practice keeps nothing, leave it out")
    if practice or deal is not None:
        screen.prepare(machine)
        PracticeGame(machine, deal if deal is not None else new_deal_number(machine), thinker).play()
        return
    bank = bank_for(store, data_dir, owner)
    try:
        bank.check()
        screen.prepare(machine)
        account = ask_name(machine, bank)
        if account is not None:
            MoneyGame(machine, bank, account, thinker).play()
    finally:
        bank.close()
