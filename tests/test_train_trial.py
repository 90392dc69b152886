"""The trial that decides whether ``cafe train`` writes a new model (cafe.train.trial): its match on duplicate
deals of each kind, and the rule that keeps the new file only when it won more than a fair share."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import pytest

from cafe.train.trial import keep_if_better, kind_words, match_plan, win_rates

KINDS = (("board", 2), ("board", 4), ("cards", 2))


def saver(written: list[Path]) -> Callable[[Path], None]:
    def save(path: Path) -> None:
        path.write_text("model")
        written.append(path)

    return save


@pytest.mark.parametrize(
    ("rates", "kept"),
    [
        ((0.55, 0.25, 0.50), True),  # ahead in one kind, even in the others
        ((0.50, 0.25, 0.50), False),  # a fair share everywhere is not better
        ((0.70, 0.10, 0.45), False),  # ahead in one kind, further behind in the others
    ],
)
def test_the_new_model_is_written_only_when_it_won_more_than_a_fair_share_and_else_kept_aside(
    tmp_path: Path, rates: tuple[float, ...], kept: bool
) -> None:
    out, written, matched = tmp_path / "model.npz", list[Path](), list[Path]()
    about: dict[str, object] = {}

    def rates_of(candidate: Path) -> dict[str, float]:
        assert candidate.read_text() == "model"  # the candidate is on disk while it plays
        matched.append(candidate)
        return {f"{e}-{n}": rate for (e, n), rate in zip(KINDS, rates, strict=True)}

    assert keep_if_better(out, KINDS, about, 0.0, saver(written), rates_of) is kept
    assert matched == [tmp_path / "model.npz.candidate"] and not matched[0].exists()
    rejected = tmp_path / "model.rejected.npz"  # a model not kept is saved for study, under another name
    assert out.exists() is kept and rejected.exists() is not kept and written == [matched[0], out if kept else rejected]
    assert about["match"] == dict(zip(("board-2", "board-4", "cards-2"), rates, strict=True))
    assert isinstance(about["seconds"], float) and about["seconds"] > 0


def test_a_failed_match_leaves_neither_the_candidate_nor_the_model(tmp_path: Path) -> None:
    out, written = tmp_path / "model.npz", list[Path]()

    def rates_of(candidate: Path) -> dict[str, float]:
        raise KeyboardInterrupt  # stopped by hand in the middle of the match

    with pytest.raises(KeyboardInterrupt):
        keep_if_better(out, KINDS, {}, 0.0, saver(written), rates_of)
    assert not list(tmp_path.iterdir())


def test_the_match_plays_each_kind_on_its_own_deals_against_every_other_seat() -> None:
    args = argparse.Namespace(seed=3, match=1, jobs=1)
    rates = win_rates("greedy", "random", KINDS, args)
    assert list(rates) == ["board-2", "board-4", "cards-2"]
    assert all(0.0 <= rate <= 1.0 for rate in rates.values())
    assert rates["board-2"] > 0.5 and rates["board-4"] > 0.25  # the greedy player beats the random ones
    assert rates == win_rates("greedy", "random", KINDS, args)  # the deals come from the seed


@pytest.mark.parametrize(("edition", "players"), KINDS)
def test_a_match_of_n_deals_plays_each_deal_in_every_seating(edition: str, players: int) -> None:
    plan = match_plan("net:new.npz:200", "mcts:200", edition, players, argparse.Namespace(seed=3, match=5))
    assert plan.players == ("net:new.npz:200", *["mcts:200"] * (players - 1))
    assert plan.deals == 5 and len(plan.tasks()) == 5 * players


def test_kinds_are_named_in_words() -> None:
    assert kind_words("board", 4) == "4-player board games"
    assert kind_words("cards", 2) == "card games"
