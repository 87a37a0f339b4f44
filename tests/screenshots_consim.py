"""Every initiative-tracker screen at tablet sizes, light and dark:
``python -m tests.screenshots_consim`` → screenshots/initiative-*.png.

Not a test: pictures to look at before calling the tracker done (see tests/screenshots.py).
"""

from __future__ import annotations

import re

from tests.e2e.conftest import READY
from tests.e2e.consim_kit import hold
from tests.e2e.test_consim import enter_roster
from tests.screenshot_kit import OUT, run


def shoot(page, name: str, full: bool = True) -> None:
    page.screenshot(path=str(OUT / f"initiative-{name}.png"), full_page=full)


def tour(page, base: str, tag: str) -> None:
    page.set_default_timeout(120_000)
    page.goto(base + "#/initiative")
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    shoot(page, f"roster-blank-{tag}")
    enter_roster(page)
    page.locator("[data-field='init:form.name']").fill("Grenadier")
    page.get_by_role("button", name="Save as template").click()
    page.get_by_role("button", name="Save this side (Opposition)").click()
    page.get_by_role("button", name="Edit Rifleman 2").click()
    page.locator("[data-field='init:seed']").fill("7")
    shoot(page, f"roster-{tag}")
    page.get_by_role("button", name="Cancel", exact=True).click()
    page.get_by_role("button", name="Start tracking").click()
    page.get_by_role("button", name="Per combatant").click()
    page.get_by_role("group", name="Advantages of all of Players").get_by_role(
        "button", name="Superior firepower").click()
    page.locator("[data-action='init:surprise'][data-arg='1']").click()
    page.evaluate("scrollTo(0, 0)")
    shoot(page, f"advantages-{tag}")
    page.locator("[data-action='init:surprise'][data-arg='1']").click()
    page.get_by_role("button", name="Deal", exact=True).click()
    page.evaluate("scrollTo(0, 0)")
    shoot(page, f"round-{tag}", full=False)
    shoot(page, f"round-full-{tag}")
    page.get_by_role("button", name="Shoot…").click()
    page.locator("[data-testid=shot-panel] [data-action='init:target']").first.click()
    page.evaluate("scrollTo(0, 0)")
    shoot(page, f"shoot-aimed-{tag}", full=False)
    page.get_by_role("button", name=re.compile("^Roll the dice")).click()
    page.evaluate("scrollTo(0, 0)")
    shoot(page, f"shot-result-{tag}", full=False)
    for _ in range(40):  # on to the first actor whose weapon can suppress an area
        page.wait_for_timeout(450)
        page.get_by_role("button", name="Next ▸").click()
        actor = page.locator("[data-testid=current-actor]")
        if actor.count() and re.match(r"Rifleman|Hero|Driver", actor.inner_text()):
            break
    page.get_by_role("button", name="Shoot…").click()
    page.get_by_role("radio", name="Suppressive (CS-9)").click()
    targets = page.locator("[data-testid=shot-panel] [role=group][aria-label=Targets] button")
    for i in range(min(3, targets.count())):
        targets.nth(i).click()
    page.evaluate("scrollTo(0, 0)")
    shoot(page, f"shoot-area-{tag}", full=False)
    page.get_by_role("button", name=re.compile("^Roll the dice")).click()
    page.evaluate("scrollTo(0, 0)")
    shoot(page, f"area-result-{tag}", full=False)
    # Rounds of fire until someone carries a countdown badge.
    for _ in range(80):
        if page.locator(".chip.count").count():
            break
        page.wait_for_timeout(450)
        if page.locator("[data-testid=deal-panel]").count():
            page.get_by_role("button", name="Deal", exact=True).click()
        elif page.get_by_role("button", name=re.compile("^End round \\d+$")).count():
            page.get_by_role("button", name=re.compile("^End round \\d+$")).click()
        else:  # CS-5: the shot is the card's action, the turn moves on by itself
            page.get_by_role("button", name="Shoot…").click()
            page.locator("[data-testid=shot-panel] [data-action='init:target']").first.click()
            page.get_by_role("button", name=re.compile("^Roll the dice")).click()
    shoot(page, f"statuses-{tag}")
    if page.get_by_role("button", name=re.compile(r"^End round \d+ now…$")).count():
        page.get_by_role("button", name=re.compile(r"^End round \d+ now…$")).click()
        page.evaluate("scrollTo(0, 0)")
        shoot(page, f"end-confirm-{tag}", full=False)
        page.get_by_role("button", name="Keep playing").click()
    page.get_by_role("button", name="Long action…").click() if page.get_by_role(
        "button", name="Long action…").is_enabled() else None
    page.evaluate("scrollTo(0, 0)")
    shoot(page, f"long-action-{tag}", full=False)
    page.locator(".rules-in-play summary").click()
    page.locator(".rules-in-play").scroll_into_view_if_needed()
    shoot(page, f"rules-in-play-{tag}", full=False)
    page.evaluate("scrollTo(0, 0)")
    page.get_by_role("button", name="Players' view", exact=True).click()
    shoot(page, f"players-view-{tag}")
    page.get_by_role("button", name="Observer's view…").click()
    shoot(page, f"players-leave-{tag}", full=False)
    hold(page, page.get_by_role("button", name="Hold to show everything"))
    page.get_by_role("button", name="History").click()
    shoot(page, f"history-{tag}", full=False)
    page.get_by_role("button", name="Share").click()
    spectator = page.locator("[data-testid=share-public]").input_value()
    shoot(page, f"share-{tag}", full=False)
    page.get_by_role("button", name="Saves").click()
    shoot(page, f"saves-{tag}", full=False)
    page.goto(spectator)
    page.wait_for_selector("[data-testid=tracker]")
    shoot(page, f"spectator-{tag}")
    page.locator("#rules-initiative summary").click()
    page.locator("#rule-HR-CS-1").scroll_into_view_if_needed()
    shoot(page, f"rules-panel-{tag}", full=False)


def own_tour(page, base: str, tag: str) -> None:
    """Issue 18: our own deck and dice (HR-CS-6, HR-CS-7): the card entry, the shot's dice."""
    from tests.e2e.consim_kit import link
    from tests.e2e.test_consim_own import DEALT, ten_combatants

    page.set_default_timeout(120_000)
    page.goto(link(base, ten_combatants()))
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    page.get_by_role("button", name="Enter the cards…").click()
    for token in DEALT[:4]:
        page.locator(f"[data-action='init:entry-pick'][data-arg='{token}']").click()
    shoot(page, f"own-cards-{tag}", full=False)
    for token in DEALT[4:]:
        page.locator(f"[data-action='init:entry-pick'][data-arg='{token}']").click()
    page.get_by_role("button", name="Deal these cards").click()
    page.wait_for_timeout(500)
    page.get_by_role("button", name="Shoot…").click()
    page.locator("[data-testid=shot-panel] [data-action='init:target']").first.click()
    page.locator("[data-action='init:die'][data-arg='9']").click()
    shoot(page, f"own-dice-{tag}", full=False)


def main() -> None:
    run(tour, device_scale_factor=1)
    run(own_tour, device_scale_factor=1)


if __name__ == "__main__":
    main()
