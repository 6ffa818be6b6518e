"""The LudL interpreter (the conformance test's oracle) on small rule texts of our own."""

import pytest
from spades_ludl import Interpreter, LudlError, Token, rules_text


COUNTER = """ignored page heading
DEF twice $n:
  RETURN PLUS $n $n;
END_DEF
# a comment
RECEIVE add $amount:
  SET_PROP 'total' PLUS GET_PROP 'total' twice INT $amount;
  IF GREATER_OR_EQUAL GET_PROP 'total' 10:
    REJECT CONCAT "too much: " STR GET_PROP 'total';
  END_IF
  ACCEPT;
END_RECEIVE"""


def counter() -> Interpreter:
    return Interpreter(rules_text(COUNTER), props={"total": 0}, containers={}, shuffle=None)


def test_prefix_expressions_calls_and_rejects_that_undo():
    game = counter()
    assert game.receive("p", "add 2") == (True, None)
    assert game.props["total"] == 4
    assert game.receive("p", "add 3") == (False, "too much: 10")
    assert game.props["total"] == 4
    assert game.receive("p", "add") == (False, "unknown message: add")


def test_containers_tokens_and_sorting():
    rules = """DEF value $card:
  RETURN TOKEN_GET_PROP $card 'v';
END_DEF
DEF pair $name:
  RETURN TUPLE2 $name value POP GET_CONTAINER $name 0;
END_DEF
RECEIVE best $x:
  ASSIGN 'pairs' MAP GET_PROP 'names' 'pair';
  REVERSE SORT_TUPLE $pairs;
  SET_PROP 'best' GET_POSITION_ELT GET_POSITION_ELT $pairs 0 0;
  ACCEPT;
END_RECEIVE"""
    containers = {"a": [Token("x", {"v": 3})], "b": [Token("y", {"v": 7})], "c": [Token("z", {"v": 5})]}
    game = Interpreter(rules, props={"names": ["a", "b", "c"]}, containers=containers, shuffle=None)
    assert game.receive("p", "best 0") == (True, None)
    assert game.props["best"] == "b"
    assert all(not tokens for tokens in game.containers.values())


@pytest.mark.parametrize(
    "rules", ["DEF f:\n  RETURN FROB 1;\nEND_DEF", "DEF f:\n  RETURN PLUS 1;\nEND_DEF", "DEF f:\n  RETURN 1;\n"]
)
def test_rules_it_cannot_read_are_refused(rules):
    with pytest.raises(LudlError):
        Interpreter(rules, props={}, containers={}, shuffle=None)
