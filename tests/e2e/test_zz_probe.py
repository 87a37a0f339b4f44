from .test_hardening import reveal
from .test_conflict import keep_all, start_example
def test_probe(page, base_url):
    start_example(page, base_url, seed="11")
    keep_all(page)
    reveal(page)
    page.locator("[data-testid=hand] .card.playable").first.tap()
    reveal(page)
    page.locator("[data-testid=hand] .card.playable").first.tap()
    reveal(page)
    page.locator("[data-testid=hand] .card.playable").first.tap()
    reveal(page)
    print(page.evaluate("[scrollY]"))
    for sel in ["[data-testid=hand]", "[data-testid=hand] .hand-help", "[data-testid=hand] h3", "[data-testid=hand] .suit-row", "[data-testid=hand] .card"]:
        print(sel, page.locator(sel).first.bounding_box())
    page.locator("[data-testid=hand] .card.playable").first.tap()
    print(page.evaluate("[scrollY]"))
    for sel in ["[data-testid=curtain]", "[data-testid=curtain] .curtain-text", "[data-testid=curtain] button"]:
        print(sel, page.locator(sel).first.bounding_box())
    page.screenshot(path="/tmp/probe.png")
