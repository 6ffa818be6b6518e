"""The variables area's layout (each variable's offset, the area's size, its shape for LOOK-VARS),
worked out once a change: after any sequence of the changes a program makes, what it says is
what working it out afresh from the variables in order says."""

from hypothesis import given
from hypothesis import strategies as st

from spectrum.variables import END_MARKER, Loop, Variables

NAMES = ("a", "b", "total", "a$", "p$", "z")

changes = st.lists(
    st.one_of(
        st.tuples(st.just("let"), st.sampled_from(("a", "b", "total")), st.integers(-5, 5)),
        st.tuples(st.just("let"), st.sampled_from(("a$", "p$")), st.text("xyz", max_size=8)),
        st.tuples(st.just("for"), st.sampled_from(("a", "b")), st.integers(0, 3)),
        st.tuples(st.just("dim"), st.just("z"), st.integers(1, 4)),
        st.tuples(st.just("element"), st.just("z"), st.integers(-9, 9)),
        st.tuples(st.just("pop"), st.sampled_from(NAMES), st.none()),
        st.tuples(st.just("del"), st.sampled_from(NAMES), st.none()),
        st.tuples(st.just("clear"), st.none(), st.none()),
    ),
    max_size=25,
)


def afresh(variables: Variables) -> tuple[dict[str, int], int]:
    offsets, offset = {}, 0
    for name in variables:
        offsets[name] = offset
        offset += variables.size(name)
    return offsets, offset + END_MARKER


@given(changes)
def test_the_layout_kept_is_the_layout_worked_out_afresh_after_every_change(steps):
    variables = Variables()
    for kind, name, value in steps:
        if kind == "let" and name not in variables.arrays:
            variables[name] = value
        elif kind == "for" and name not in variables.arrays:
            variables.for_loop(name, value, Loop(10, 1, 100, 2))
        elif kind == "dim":
            variables.dim(name, [0] * value)
        elif kind == "element" and name in variables.arrays:
            variables.assign_element(name, (1,), value)
        elif kind == "pop":
            variables.pop(name, None)
        elif kind == "del" and name in variables:
            del variables[name]
        elif kind == "clear":
            variables.clear()
        assert variables.layout() == afresh(variables)
        assert variables.area_size() == afresh(variables)[1]
        assert variables.shape() == (tuple(variables), tuple(variables.loops), frozenset(variables.arrays))
        for name in variables:
            assert variables.after(name) == afresh(variables)[1] - afresh(variables)[0][name] - variables.size(name)
