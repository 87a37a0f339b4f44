"""Every tap answered at once (issue 33): ``python -m tests.bench_taps`` (``make bench``).

A benchmark, not a test. Per table a scripted session of at least :data:`TAPS` touch taps
covering its heavy moments — the conflict against the Hard app (its moves, Undo, History),
the campaign (hands behind the curtain, battles, exhaustion rolls, the negotiating table,
Undo, History), the initiative tracker (Next, a deal, the players' view and back to the
Observer's view, Undo, History) and the battle against the Hard app's general (the curtain
and the staff officer's grid, Declare, Reveal, the roll, Undo, History) — measured with the
browser's Event Timing API (``PerformanceObserver`` type "event", ``durationThreshold`` 16:
each interaction's duration from the tap to the next paint, the figure behind Interaction
to Next Paint), in Chromium at normal CPU and at 4× CPU slowdown (the DevTools Protocol's
``Emulation.setCPUThrottlingRate``: an older iPad), on this site (``build/``) and, side by
side, on the site built from a base commit (``--base``, default ``main``: a ``git worktree``
in a temporary folder, built there with its own builder, kept for the next run).

Prints median, p95 and worst per table and CPU rate, base → now. A tap under 16 ms is not
reported by the browser: it counts as 16 ms. A tap after which nothing changed on screen
before the next tap ("unpainted": the browser times it to the next paint, whenever that comes)
is counted apart, not in the figures; ``--per-tap`` prints every tap. The machine is shared:
the ratio is the point.
"""

from __future__ import annotations

import argparse
import math
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import sync_playwright

from builder.serve import serve_in_thread
from engine import ascension as ai
from engine import codec
from engine.game import new_game

from .e2e.conftest import CHROMIUM, CHROMIUM_FLAGS, READY
from .e2e.consim_kit import HOLD_MS

ROOT = Path(__file__).resolve().parent.parent
#: Taps per table and session (issue 33: at least 30).
TAPS = 32
#: A person's pause between taps: longer than the double-tap guard and a curtain's settling.
PAUSE_MS = 750
RATES = (1, 4)
#: How long a session's game may take to open (a link an older build refuses never does).
OPEN_MS = 30_000
TABLES = ("conflict", "campaign", "initiative", "battle")

#: Every interaction's events (pointerdown, pointerup, click of one tap share an id): its id,
#: start and duration, as the browser reports them after the next paint.
EVENT_TIMING = """window.__ev = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.interactionId)
  window.__ev.push([e.interactionId, e.startTime, e.duration]); })
  .observe({type: "event", durationThreshold: 16, buffered: true});
// A press and hold (static/shell.js "ct:hold") is no event the browser times: from the hold's
// moment to the end of the frame after it (the app's handler runs between), the same figure.
window.addEventListener("ct:hold", () => { const t = performance.now();
  requestAnimationFrame(() => setTimeout(() => window.__ev.push([0, t, performance.now() - t]), 0)); },
  {capture: true});
// What each render cost (web/app.py, when asked): building the tree, patching the page.
window.ctMeasureRenders = true; window.__rp = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.name.startsWith("ct:"))
  window.__rp.push([e.name, e.startTime, e.duration]); }).observe({type: "measure"});"""

#: A selector so marked is pressed and held (the Observer's view's way back, issue 34 item 7).
HOLD = "hold:"
UNDO = "role=button[name='↶ Undo']"
HISTORY = "role=button[name='History']"

#: Per table: what a player taps next, the first of these on screen and enabled; and every
#: few taps one of the ``extras`` (a sequence of taps: Undo, History open and shut …).
PLANS: dict[str, dict] = {
    "conflict": {
        "next": ["[data-testid=hand] .card.playable", "role=button[name='Keep all cards']",
                 "[data-action='conflict:next-round']", "role=button[name=/Cannot play/]"],
        "extras": [[UNDO], [HISTORY, HISTORY]],
    },
    "campaign": {
        # The winner's troop points first (CMP-3: "None left"), so Record moves the war on: a
        # Record refused for an empty box repeated (the same message, nothing new to paint)
        # is a tap the browser times to the next paint, seconds later, not the app's work.
        "next": ["[data-testid=record]:has([data-testid=troops-hint]) [data-action='campaign:troops-zero']",
                 "[data-action='campaign:record']:not([disabled])", "[data-action='campaign:winner']",
                 "role=button[name='Roll 2d6']", "[data-testid=spoils] button[data-action='campaign:take']",
                 "[data-action='campaign:negotiate']"],
        "extras": [["[data-testid=curtain] button", "role=button[name='Hide hand']"], [UNDO], [HISTORY, HISTORY]],
    },
    "initiative": {
        "next": ["role=button[name='Next ▸']", "role=button[name='Deal']"],
        "extras": [["[data-testid=players-view-button]", "[data-action='init:leave']",
                    HOLD + "[data-hold-action='init:leave-yes']"],
                   [UNDO], [HISTORY, HISTORY]],
    },
    "battle": {
        "next": ["role=button[name='Roll the dice']", "role=button[name='Reveal both bids']",
                 "role=button[name='Declare in secret']", "[data-action='battle:pick'][data-arg=attack]",
                 "[data-testid=curtain] button", "[data-slot=body] .btn.primary"],
        "extras": [[UNDO], [HISTORY, HISTORY]],
    },
}
#: Every how many taps an extra comes.
EXTRA_EVERY = 5


def _battle_link() -> str:
    setup = ai.example_setup()
    setup["armies"][1].update(controller="app", level="hard")
    return "#/battle?g=" + codec.encode_share(new_game("battle", setup, None, 8))


def _initiative_link() -> str:
    from .e2e.test_phones import dealt_game

    return "#/initiative?g=" + codec.encode_share(dealt_game())


def _go(page, hash_: str) -> None:
    page.evaluate("h => { location.hash = h }", hash_)
    page.wait_for_timeout(500)


def _open(page, table: str) -> None:
    """The table's game, from its setup form or a link (nothing timed yet)."""
    if table == "conflict":
        from .e2e.test_solo import set_up_solo

        _go(page, "#/conflict")
        set_up_solo(page, "hard")
        page.get_by_role("button", name="Start the conflict").tap()
        page.wait_for_selector("#app-conflict [data-testid=table]")
    elif table == "campaign":
        _go(page, "#/campaign")
        page.wait_for_selector("#app-campaign [data-testid=setup]")
        page.locator("[data-field='campaign:name0']").fill("Anna")
        page.locator("[data-field='campaign:name1']").fill("Ben")
        page.locator("#app-campaign [data-field=seed]").fill("5")
        page.get_by_role("button", name="Start the campaign").tap()
        page.wait_for_selector("#app-campaign [data-testid=table]")
    elif table == "initiative":
        _go(page, _initiative_link())
        page.wait_for_selector("#app-initiative [data-testid=current-actor]", timeout=OPEN_MS)
    else:
        _go(page, _battle_link())
        page.wait_for_selector("#app-battle [data-testid=board]", timeout=OPEN_MS)


def _hold(page, el) -> None:
    """A finger pressed on ``el`` and kept there past the hold's second (the DevTools
    Protocol's touch events, as a tablet sends them; a mouse's press after touch taps is
    timed by Chromium to the paint after the hold, a second later than it was drawn)."""
    el.scroll_into_view_if_needed()
    box = el.bounding_box()
    point = [{"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}]
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
    page.wait_for_timeout(HOLD_MS + 300)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def _tap_first(page, table: str, selectors: list[str]) -> str | None:
    """Tap the first of ``selectors`` on the table's screen that is shown and enabled; which."""
    screen = page.locator(f"#app-{table}")
    for selector in selectors:
        held = selector.startswith(HOLD)
        found = screen.locator(selector.removeprefix(HOLD))
        for i in range(min(found.count(), 3)):
            el = found.nth(i)
            try:
                if el.is_visible() and el.is_enabled() and el.get_attribute("aria-disabled") != "true":
                    # a generic selector says which button it was ("… .btn.primary" → its words)
                    label = "" if "name=" in selector else f" “{(el.inner_text() or '').strip()[:40]}”"
                    if held:
                        _hold(page, el)
                    else:
                        el.tap(timeout=5_000)
                    return selector + label
            except Exception:  # it went meanwhile: the next one
                continue
    return None


def _settle(page, table: str) -> None:
    """A person's pause; the app's turn (if any) has been made."""
    page.wait_for_timeout(PAUSE_MS)
    try:
        page.wait_for_selector(f"#app-{table} [data-testid=app-turn]", state="detached", timeout=30_000)
    except Exception:
        pass


def play(plan: dict, made: list, wanted: int, tap) -> None:
    """A table's plan, tap by tap, until ``made`` (what ``tap`` keeps of each tap) holds
    ``wanted``: the first next tap on screen (Undo when there is none), and every
    :data:`EXTRA_EVERY` taps the next of the extras. ``tap(selectors)`` taps the first of
    ``selectors`` shown and enabled, and says whether there was one."""
    extra, extra_at = 0, -1
    while len(made) < wanted:
        if made and len(made) % EXTRA_EVERY == 0 and extra_at != len(made):
            extra_at = len(made)
            for selector in plan["extras"][extra % len(plan["extras"])]:
                tap([selector])
            extra += 1
            continue
        if not tap(plan["next"]) and not tap([UNDO]):
            break


def session(page, table: str, wanted: int = TAPS) -> list[tuple[float, str]]:
    """The table's scripted taps: each tap's interaction duration (ms; 16 when the browser did
    not report it, under its threshold; ``nan`` when nothing was painted before the next tap)
    and what was tapped.

    A tap owns the interactions that started while it was being made; their entries come after
    the next paint. A tap after which nothing changed on screen is painted by nobody: its
    duration runs to whatever paints next (the next tap's answer, seconds later) and measures
    the script's pauses, not the app's work — such a tap is ``nan`` and counted apart."""
    _open(page, table)
    _settle(page, table)
    page.evaluate("window.__ev = []; window.__rp = []")
    windows: list = []
    now = "performance.now()"

    def tap(selectors: list[str]) -> bool:
        start = page.evaluate(now)
        what = _tap_first(page, table, selectors)
        if what is None:
            return False
        windows.append((start, page.evaluate(now), what))
        _settle(page, table)
        return True

    play(PLANS[table], windows, wanted, tap)
    # The last tap's entries: after a paint (a change on screen made here, nowhere in the app).
    page.evaluate("""() => new Promise(done => { const m = document.createElement('div');
        m.style.cssText = 'position:fixed;top:0;left:0;width:2px;height:2px;background:red';
        document.body.append(m); requestAnimationFrame(() => requestAnimationFrame(() =>
        setTimeout(() => { m.remove(); done(); }, 100))); })""")
    entries, renders = page.evaluate("window.__ev"), page.evaluate("window.__rp")
    out = []
    for index, (start, end, what) in enumerate(windows):
        # A press and hold is timed from the hold's moment (id 0): Chromium times the press's
        # pointerdown to a paint after the held second although the fill was drawn meanwhile
        # (no long animation frame in between: the main thread was free), so the press is
        # the held second, not the app's work.
        mine = [(s, d) for i, s, d in entries if start <= s <= end and (i == 0) == what.startswith(HOLD)]
        following = windows[index + 1][0] if index + 1 < len(windows) else float("inf")
        # the renders of the tap and of the work it left for after the paint, until the next tap
        cost = {name: sum(d for n, s, d in renders if n == name and start <= s < following)
                for name in ("ct:render", "ct:patch")}
        what = f"{what}  (render {cost['ct:render']:.0f} + patch {cost['ct:patch']:.0f} ms)"
        if any(s + d > following for s, d in mine):
            out.append((float("nan"), what))
        else:
            out.append((max([16.0, *(d for _, d in mine)]), what))
    return out


def unpainted(taps: list[tuple[float, str]]) -> int:
    """How many taps changed nothing on screen before the next one (see :func:`session`)."""
    return sum(1 for d, _ in taps if math.isnan(d))


def figures(taps: list[tuple[float, str]]) -> tuple[float, float, float]:
    samples = sorted(d for d, _ in taps if not math.isnan(d)) or [float("nan")]
    p95 = samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))]
    return statistics.median(samples), p95, samples[-1]


def run_site(browser, base: str, rate: int, taps: int = TAPS, tables=TABLES, per_tap: bool = False) -> dict[str, list]:
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.add_init_script(EVENT_TIMING)
    page.goto(base + "#/")
    page.wait_for_selector(READY, state="attached")
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    out = {}
    for table in tables:
        try:
            out[table] = session(page, table, taps)
        except PlaywrightTimeoutError:  # an older build that cannot open this session's game
            print(f"  {base} {rate}× {table}: the session's game did not open (an older version's link "
                  "format?): no figures", file=sys.stderr, flush=True)
            out[table] = []
            continue
        worst = sorted((t for t in out[table] if not math.isnan(t[0])), reverse=True)[:3]
        print(f"  {base} {rate}× {table}: {len(out[table])} taps, {unpainted(out[table])} unpainted; the worst: "
              + ", ".join(f"{d:.0f} ms {what}" for d, what in worst), file=sys.stderr, flush=True)
        if per_tap:
            for index, (d, what) in enumerate(out[table]):
                print(f"    {index:2d} {d:6.0f} ms  {what}", file=sys.stderr, flush=True)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    context.close()
    return out


def base_build(commit: str) -> Path:
    """The site built from ``commit`` (a worktree in the temporary folder, built with its own
    builder; kept by its commit for the next run)."""
    sha = subprocess.run(["git", "rev-parse", commit], cwd=ROOT, check=True, capture_output=True,
                         text=True).stdout.strip()
    tmp = Path(tempfile.gettempdir())
    out = tmp / f"conflict-table-site-{sha[:12]}"
    if (out / "index.html").exists():
        return out
    tree = tmp / f"conflict-table-tree-{sha[:12]}"
    if not tree.exists():
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), sha], cwd=ROOT, check=True)
        (tree / "node_modules").symlink_to((ROOT / "node_modules").resolve())
    subprocess.run([sys.executable, "-m", "builder.build", "--out", str(out)], cwd=tree, check=True)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="main", help="the commit to compare with (default: main)")
    parser.add_argument("--base-site", type=Path, help="an already built site of the base")
    parser.add_argument("--taps", type=int, default=TAPS, help=f"taps per table (default {TAPS})")
    parser.add_argument("--tables", nargs="+", default=list(TABLES), choices=TABLES, help="tables (default all)")
    parser.add_argument("--per-tap", action="store_true", help="print every tap's duration and what it was")
    parser.add_argument("--rates", type=int, nargs="+", default=list(RATES), help="CPU slowdowns (default 1 4)")
    args = parser.parse_args(argv)
    sites = {"base": args.base_site or base_build(args.base), "now": ROOT / "build"}
    servers = {name: serve_in_thread(path) for name, path in sites.items()}
    results: dict[tuple[str, int], dict[str, list]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        # Table by table, base then now: on a shared machine whose load drifts over the minutes
        # a run takes, both sides of a row are measured minutes apart at most.
        for rate in args.rates:
            for table in args.tables:
                for name in ("base", "now"):
                    results.setdefault((name, rate), {}).update(
                        run_site(browser, servers[name][1], rate, args.taps, [table], args.per_tap))
        browser.close()
    for server, _ in servers.values():
        server.shutdown()
    print(f"Taps answered (issue 33): Event Timing duration to the next paint, ms, {args.taps} taps per table; "
          f"base {args.base_site or args.base} → now")
    print(f"{'table':<11} {'CPU':>3}  {'median':>13}  {'p95':>13}  {'worst':>13}  {'unpainted':>9}")
    for table in args.tables:
        for rate in args.rates:
            before, after = figures(results[("base", rate)][table]), figures(results[("now", rate)][table])
            cells = "  ".join(f"{b:>5.0f} → {a:<5.0f}".replace("nan", "n/a") for b, a in zip(before, after))
            blind = f"{unpainted(results[('base', rate)][table])} → {unpainted(results[('now', rate)][table])}"
            print(f"{table:<11} {rate:>2}×  {cells}  {blind:>9}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
