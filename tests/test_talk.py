"""A word to the table: short plain lines to everyone there, rate-limited, muted at will, hostile
lines refused or carried as harmless text, nothing of it on disk."""

import json
import time

import pytest
from websockets.sync.client import connect

from games.host.talk import BURST, LINE_LENGTH, SECONDS_A_LINE, Talk, TalkRefused, Talks, clean_line, talk_of
from served import running_server


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def table_talk():
    clock = Clock()
    talk = Talk(clock)
    heard = {name: [] for name in ("Anna", "Bob", "Cy")}
    listeners = {name: talk.join(name, heard[name].append) for name in heard}
    return talk, clock, heard, listeners


def lines(heard):
    return [(said["said"]["who"], said["said"]["text"]) for said in heard if "text" in said["said"]]


def test_a_line_is_heard_by_everyone_at_the_table_and_a_newcomer_hears_the_last_lines():
    talk, clock, heard, speakers = table_talk()
    talk.take(speakers["Anna"], {"say": "  good   game  "})
    assert all(lines(heard[name]) == [("Anna", "good game")] for name in heard)
    late = []
    talk.join("Dee", late.append)
    assert lines(late) == [("Anna", "good game")]


@pytest.mark.parametrize(
    "line, why",
    [
        ("", "nothing to say"),
        ("   ", "nothing to say"),
        ("x" * (LINE_LENGTH + 1), f"a line is {LINE_LENGTH} characters at most"),
        ("bell\x07", "U+0007"),
        ("esc\x1b[31mred", "U+001B"),
        ("new\nline", "U+000A"),
        ("right\u202eleft", "U+202E"),  # a bidi override
        ("zero\u200bwidth", "U+200B"),
        ("Привет", "U+041F"),
        ("你好", "U+4F60"),
        ("shy\u00adhyphen", "U+00AD"),
        (42, "a line is text"),
        (["a"], "a line is text"),
    ],
)
def test_a_hostile_line_is_refused_saying_why(line, why):
    with pytest.raises(TalkRefused, match=why.replace("[", r"\[").replace("+", r"\+")):
        clean_line(line)


@pytest.mark.parametrize(
    "line", ["<b>bold</b> & <script>alert(1)</script>", "Zoë: c'est ça!", "ß æ ø ł", "10 for 200?"]
)
def test_markup_and_latin_letters_are_carried_as_plain_text(line):
    assert clean_line(line) == line  # the page shows it as text (textContent), never as markup


def test_a_refusal_is_told_to_the_speaker_alone_and_changes_nothing():
    talk, clock, heard, speakers = table_talk()
    talk.take(speakers["Bob"], {"say": "\x00"})
    assert heard["Bob"][-1]["said"]["refused"].startswith("a line is plain text")
    assert not heard["Anna"] and not heard["Cy"] and not talk.lines


def test_a_flood_is_refused_after_a_burst_and_a_line_is_allowed_again_in_time():
    talk, clock, heard, speakers = table_talk()
    for number in range(BURST + 5):
        talk.take(speakers["Cy"], {"say": f"line {number}"})
    assert len(lines(heard["Anna"])) == BURST
    assert sum("refused" in said["said"] for said in heard["Cy"]) == 5
    clock.now += SECONDS_A_LINE
    talk.take(speakers["Cy"], {"say": "later"})
    assert lines(heard["Anna"])[-1] == ("Cy", "later")


def test_a_muted_speaker_is_not_heard_by_who_muted_them_until_unmuted():
    talk, clock, heard, speakers = table_talk()
    talk.take(speakers["Anna"], {"mute": "Bob"})
    assert heard["Anna"][-1] == {"said": {"muted": ["Bob"]}}
    talk.take(speakers["Bob"], {"say": "buy my stuff"})
    assert not lines(heard["Anna"]) and lines(heard["Cy"]) == [("Bob", "buy my stuff")]
    talk.take(speakers["Anna"], {"unmute": "Bob"})
    clock.now += 10
    talk.take(speakers["Bob"], {"say": "sorry"})
    assert lines(heard["Anna"]) == [("Bob", "sorry")]


def test_a_second_browser_under_a_name_taken_is_told_apart():
    talks = Talks()
    _, anna = talks.join(("spades", "T1"), "Anna", lambda said: None, owner="a")
    _, again = talks.join(("spades", "T1"), "Anna", lambda said: None, owner="a")  # her second tab
    _, impostor = talks.join(("spades", "T1"), "Anna", lambda said: None, owner="e")
    assert (anna.name, again.name, impostor.name) == ("Anna", "Anna", "Anna 2")


def test_the_talk_of_a_table_is_let_go_once_nobody_listens():
    talks = Talks()
    talk, listener = talks.join(("spades", "T1"), "Anna", lambda said: None)
    talk.take(listener, {"say": "hello"})
    talks.leave(("spades", "T1"), talk, listener)
    assert not talks.talks
    fresh, _ = talks.join(("spades", "T1"), "Bob", lambda said: None)
    assert not fresh.lines


@pytest.mark.parametrize(
    "text, talk",
    [
        ('{"say": "hi"}', {"say": "hi"}),
        ('{"mute": "Bob"}', {"mute": "Bob"}),
        ('{"held": ["ENTER"]}', None),
        ('{"say": "hi", "held": []}', None),
        ('{"say"', None),
        (b'{"say": "x"}', None),
    ],
)
def test_talk_is_told_apart_from_what_goes_to_the_machine(text, talk):
    assert talk_of(text) == talk


def socket_at(base, table, name, secret):
    return connect(f"{base}spades?table={table}&name={name}", additional_headers={"Cookie": f"zxcards-secret={secret}"})


def said_lines(socket, want, seconds=10.0):
    """The `said` messages this socket hears until `want` of them came (frames skipped)."""
    found, ends = [], time.monotonic() + seconds
    while len(found) < want and time.monotonic() < ends:
        message = socket.recv(timeout=max(0.01, ends - time.monotonic()))
        if isinstance(message, str) and "said" in json.loads(message):
            found.append(json.loads(message)["said"])
    return found


def test_a_line_said_at_a_served_table_reaches_the_others_and_nothing_of_it_is_kept(tmp_path):
    with running_server(data_dir=tmp_path) as (base, _):
        base = base.replace("http://", "ws://")
        with socket_at(base, "TALK1", "Anna", "a" * 32) as anna, socket_at(base, "TALK1", "Bob", "b" * 32) as bob:
            time.sleep(0.5)
            anna.send(json.dumps({"say": "<i>good</i> game"}))
            assert said_lines(bob, 1) == [{"who": "Anna", "text": "<i>good</i> game"}]
            bob.send(json.dumps({"say": "x" * 200}))  # over 80: refused, to Bob alone
            assert "characters at most" in said_lines(bob, 1)[0]["refused"]
    kept = b"".join(path.read_bytes() for path in tmp_path.rglob("*") if path.is_file())
    assert b"good" not in kept


@pytest.mark.parametrize(
    "message, shown",
    [
        ('{"said": {"who": "Anna", "text": "good game"}}', "Anna: good game"),
        ('{"said": {"who": "Anna", "text": "<b>x</b>"}}', "Anna: <b>x</b>"),  # text, as the window draws text
        ('{"said": {"who": "Anna", "text": "bell\\u0007"}}', "Anna: bell"),
        ('{"said": {"refused": "wait"}}', ""),
        ('{"status": "said"}', ""),
        ('{"said": 5}', ""),
        (b"said", ""),
    ],
)
def test_connect_s_window_shows_a_line_heard_in_its_status_line(message, shown):
    from games.host.connect import heard_line

    assert heard_line(message) == shown


def test_connect_sends_the_lines_typed_into_its_window_once_each():
    from games.host.connect import _lines_typed

    class Window:
        lines = ["good game", "again?"]

    window = Window()
    assert _lines_typed(window) == ["good game", "again?"] and _lines_typed(window) == []
    assert _lines_typed(object()) == []  # a front end with no strip to type into
