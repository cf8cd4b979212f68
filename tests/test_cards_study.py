"""`bangsim cards`: each card knocked out of the deck against the printed deck on the same
seeds (simcore.studies.cards)."""

import pytest
from test_cli import assert_bad_input
from typer.testing import CliRunner

from simcore.cli import app
from simcore.engine.theme import load_theme
from simcore.engine.vocab import ROLES
from simcore.studies.cards import card_values, knocked_out, read_cards

runner = CliRunner()


@pytest.mark.parametrize(("card", "copies"), [("Gatling", 1), ("Missed!", 12)])
def test_a_knocked_out_card_is_absent_from_the_deck(card, copies):
    classic = load_theme("classic")
    without, removed = knocked_out(classic, card)
    assert removed == copies and without.id == "classic"
    assert card not in without.card_display
    assert len(without.card_faces) == len(classic.card_faces) - copies
    # every other card keeps its copies
    others = [c for c in classic.card_display if c != card]
    assert sorted(without.card_display) == sorted(others)


def test_card_values_pair_every_arm_with_the_printed_deck():
    table = card_values("classic", 4, 60, 3, "basic", ["Gatling", "Beer"])
    assert table.height == 6 and set(table["card"]) == {"Gatling", "Beer"}
    for r in table.iter_rows(named=True):
        assert r["effect"] == pytest.approx(r["rate_without"] - r["rate_printed"])
        assert r["effect_lower"] <= r["effect"] <= r["effect_upper"]
    # the printed arm is one arm: the same rate of a side on every card's rows
    for (side,), group in table.group_by("side"):
        assert group["rate_printed"].n_unique() == 1, side


def test_cards_cli_answers_and_refuses_a_misspelled_card():
    args = ["cards", "--players", "4", "--games", "40", "--strategy", "basic", "--no-progress"]
    result = runner.invoke(app, [*args, "--cards", "Gatling,Jail"])
    assert result.exit_code == 0, result.output
    assert "Knocking out" in result.stdout and "1 of 1" in result.stdout
    assert_bad_input(runner.invoke(app, [*args, "--cards", "Gatlin"]), "Gatlin", "Gatling")


def test_character_answers_in_one_place():
    from simcore.studies.character import character_answer, character_lines

    answer = character_answer("Calamity Janet", "classic", 4, 300, 2, "basic", 100)
    assert answer.overall["character"] == "Calamity Janet"
    roles = [r["role"] for r in answer.roles]  # canonical order; no deputy at 4 players
    assert roles == sorted(roles, key=ROLES.index) and set(roles) <= {
        "leader",
        "outlaw",
        "renegade",
    }
    assert answer.ability["games"] == 100 and answer.ability["ability"] == "bang_missed_swap"
    lines = character_lines(answer)
    assert lines[0].startswith("Calamity Janet (BANG!, 4 players, basic bots): ")
    assert any("as Sheriff" in line for line in lines) and "ability" in lines[-1]
    result = runner.invoke(app, ["character", "Calamty Janet", "--games", "50"])
    assert_bad_input(result, "did you mean 'Calamity Janet'")


def test_the_report_shows_the_cards_written_into_its_run(tmp_path):
    run = tmp_path / "run"
    args = ["--players", "4", "--strategy", "basic", "--no-progress", "--out", str(run)]
    assert runner.invoke(app, ["run", "--games", "60", *args]).exit_code == 0
    cards = ["cards", "--games", "40", "--cards", "Gatling,Beer", *args]
    result = runner.invoke(app, cards)
    assert result.exit_code == 0, result.output
    assert (run / "cards-classic_4p.png").read_bytes()[:4] == b"\x89PNG"
    stored = read_cards(run)
    assert stored.height == 6 and set(stored["card"]) == {"Gatling", "Beer"}
    assert stored.equals(card_values("classic", 4, 40, 1, "basic", ["Gatling", "Beer"]))
    result = runner.invoke(app, ["report", str(run)])
    assert result.exit_code == 0, result.output
    html = (run / "report" / "index.html").read_text()
    section = html[html.index('id="knockouts"') :]
    assert "knocking out " in section and "Gatling" in section and "Beer" in section
    assert (run / "report" / "knockouts-classic_4p.png").is_file()
    (run / "cards-classic_4p.json").write_text("{}")
    result = runner.invoke(app, ["report", str(run)])
    assert result.exit_code != 0 and "not a card table" in result.output
