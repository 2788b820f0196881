"""Which creatures assign combat damage in which step: CR 510.4, 702.4b-d, 702.7b-c."""

from __future__ import annotations

from collections.abc import Iterator

from ..amounts import Amounts
from ..combat import FIRST_STRIKE_STEP, ONLY, SECOND
from ..keywords import DOUBLE_STRIKE, FIRST_STRIKE
from ..ops import Term, all_of, any_of, implies, negate, remembered
from .constraint import Constraint


@remembered
def assigns_this_step(view, c: str) -> Term:
    only = view.step_is(ONLY)
    if only is True:  # no first or double strike: as any_of would fold it, asking no more
        return True
    return any_of(_steps_ways(view, c, only))


def _steps_ways(view, c: str, only: Term) -> Iterator[Term]:
    """Each way c assigns in this step, the combat's only one first, asked only while none
    found so far holds (`any_of` stops at True)."""
    yield only
    double_strike = view.has(c, DOUBLE_STRIKE)
    # 510.4: the first step is for creatures with first strike or double strike.
    yield all_of(
        (
            view.step_is(FIRST_STRIKE_STEP),
            any_of((view.has(c, FIRST_STRIKE), double_strike)),
        )
    )
    # 510.4, 702.4c-d, 702.7c: the second is for those that did not strike first, and for
    # those that have double strike now.
    yield all_of((view.step_is(SECOND), any_of((negate(view.struck_first(c)), double_strike))))


def constraints(view, amounts: Amounts) -> Iterator[Constraint]:
    for c in view.creatures:
        # Each sum made here, first, whatever the step: for the solver it is a term, and the
        # order terms are made in steers which witness Z3 finds.
        sent = amounts.sent_by(c)
        assigns = assigns_this_step(view, c)
        if assigns is True:  # as implies would fold it: constrains nothing (rules.constraints)
            continue
        holds = implies(negate(assigns), sent == 0)
        if holds is True:
            continue
        yield Constraint(
            ("510.4", "702.4b", "702.7b"),
            c,
            holds,
            lambda c=c: f"{c} assigns combat damage only in the steps CR 510.4 gives it",
            lambda c=c, sent=sent: ("510.4", _why_not_this_step(view, c, sent)),
        )


def _why_not_this_step(view, c: str, sent: int) -> str:
    if view.step_is(FIRST_STRIKE_STEP):
        reason = (
            "has neither first strike nor double strike, so it assigns no combat damage "
            "in the first-strike step"
        )
    else:
        reason = (
            "struck in the first-strike step and has no double strike now, so it assigns no "
            "combat damage in the second step"
        )
    return f"{c} {reason}, but it assigns {sent}"
