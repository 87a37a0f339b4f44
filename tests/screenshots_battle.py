"""The battle board's screens at the four tablet sizes, light and dark:
``python -m tests.screenshots_battle [768x1024 …]`` → screenshots/battle-*.png.

Not a test: pictures to look at before calling the board done. Games are opened from links
made by the engine, so each screen is one step away.
"""

from __future__ import annotations

from engine import ascension as ai
from engine import codec
from engine.game import apply, new_game
from tests.e2e.conftest import READY
from tests.screenshot_kit import run
from tests.screenshots import shoot


def example(rules=None, seed=7):
    return new_game("battle", ai.example_setup(), rules, seed)


def bids(game, m0, m1, s0=(), s1=()):
    game = apply(game, {"type": "bid", "side": 0, "maneuver": m0, "stratagems": list(s0)})
    return apply(game, {"type": "bid", "side": 1, "maneuver": m1, "stratagems": list(s1)})


def open_game(page, base, game):
    page.goto(base + "#/battle?g=" + codec.encode_share(game))
    page.wait_for_selector("[data-testid=board]")
    page.evaluate("document.querySelectorAll('.toast').forEach(t => t.remove())")


def lift(page):
    page.wait_for_timeout(700)
    page.locator("[data-testid=curtain] button").click()


def tour(page, base: str, tag: str) -> None:
    page.goto(base + "#/battle")
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    page.wait_for_selector("[data-testid=setup]")
    shoot(page, f"battle-setup-{tag}")
    cell = page.locator("[data-testid=setup] [data-action='battle:edit-cell'][data-arg='shock.shock']")
    cell.scroll_into_view_if_needed()
    cell.click()
    shoot(page, f"battle-cell-editor-{tag}", full=False)
    page.get_by_role("button", name="Close").click()
    # The curtain and the bid form (Defend: Hold the Line, Counter Attack).
    open_game(page, base, example())
    shoot(page, f"battle-curtain-{tag}", full=False)
    lift(page)
    page.locator("[data-action='battle:pick'][data-arg=withdraw]").click()
    shoot(page, f"battle-bid-withdraw-{tag}", full=False)
    page.locator("[data-action='battle:pick'][data-arg=defend]").click()
    page.locator("[data-action='battle:strat'][data-arg=counter_attack]").click()
    shoot(page, f"battle-bid-defend-{tag}", full=False)
    # Feint against Counter Attack, revealed (the Zone general made skilled for Feint).
    setup = ai.example_setup()
    setup["armies"][1]["general"]["level"] = 3
    game = bids(new_game("battle", setup, None, 7), "defend", "attack", ["counter_attack"], ["feint"])
    open_game(page, base, apply(game, {"type": "reveal"}))
    shoot(page, f"battle-revealed-feint-{tag}", full=False)
    # Our own dice: the entry, filled in, with a range to enter.
    game = apply(bids(example({"dice": "table"}), "shock", "shock"), {"type": "reveal"})
    open_game(page, base, game)
    shoot(page, f"battle-entry-empty-{tag}", full=False)
    page.locator("[data-action='battle:hits'][data-arg='0.3']").click()
    page.locator("[data-action='battle:hits'][data-arg='1.1']").click()
    page.locator("[data-action='battle:range'][data-arg='0.2']").click()
    shoot(page, f"battle-entry-successes-{tag}")
    page.locator("[data-action='battle:entry-mode'][data-arg=faces]").click()
    for v in (6, 4, 1, 2):
        page.locator(f"[data-action='battle:face'][data-arg='0.{v}']").click()
    shoot(page, f"battle-entry-faces-{tag}", full=False)
    page.locator("[data-action='battle:entry-mode'][data-arg=successes]").click()
    page.locator("[data-action='battle:record']").click()
    page.wait_for_selector("[data-testid=week-result]")
    shoot(page, f"battle-result-entered-{tag}")
    # Between weeks: a unit joins.
    page.get_by_role("button", name="A unit joins Zone Army").click()
    shoot(page, f"battle-unit-form-{tag}", full=False)
    # The result of an app roll with mitigation, and a fallback (AI-19) ending the battle.
    game = apply(apply(bids(example({"dice": "table"}), "attack", "defend"), {"type": "reveal"}), {"type": "roll",
                                                                                 "dice": [[6] * 6, [1] * 4]})
    open_game(page, base, game)
    shoot(page, f"battle-over-fallback-{tag}")
    # A spectator's copy while both armies have declared.
    open_game(page, base, ai.public_game(bids(example(), "block", "attack", ["ambush"])))
    shoot(page, f"battle-spectator-{tag}", full=False)
    # The leave offer after a Skirmish.
    game = apply(apply(bids(example(), "attack", "skirmish"), {"type": "reveal"}), {"type": "roll"})
    open_game(page, base, game)
    shoot(page, f"battle-leave-offer-{tag}", full=False)


def main() -> None:
    run(tour)


if __name__ == "__main__":
    main()
