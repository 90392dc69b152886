"""The bound on password attempts (cafe.server.throttle) on a clock the test turns: attempts age out of the window,
and the keys kept stay bounded however many made-up names are tried."""

from __future__ import annotations

from cafe.server.throttle import Throttle


class Clock:
    """Seconds that pass only when the test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_attempts_beyond_the_bound_wait_until_the_first_ages_out_of_the_window() -> None:
    clock = Clock()
    throttle = Throttle(3, 60.0, clock=clock)
    assert [throttle.allow("ann") for _ in range(4)] == [True, True, True, False]
    assert throttle.allow("bob")  # another key has its own count
    clock.now = 59.9
    assert not throttle.allow("ann")  # a refused attempt is not counted, and none has aged out yet
    clock.now = 60.0
    assert throttle.allow("ann")  # the first three aged out together
    assert [throttle.allow("ann") for _ in range(3)] == [True, True, False]


def test_a_flood_of_new_keys_is_refused_until_the_kept_ones_age_out() -> None:
    clock = Clock()
    throttle = Throttle(5, 60.0, keys=3, clock=clock)
    assert [throttle.allow(name) for name in ("a", "b", "c", "d")] == [True, True, True, False]
    assert throttle.allow("a")  # a key already kept is still counted
    clock.now = 30.0
    assert not throttle.allow("e")
    clock.now = 61.0  # "a", "b" and "c" were last tried a window ago: they go
    assert throttle.allow("e") and throttle.allow("f")
    assert [throttle.allow(name) for name in ("g", "h")] == [True, False]  # three kept again: e, f, g
