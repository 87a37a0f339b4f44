"""The tablet test kit: the same battery for every table (issue 7).

Import it from any e2e test (``from .tablet import ...``). Everything works on a
Playwright ``Page``/``Locator`` of the built site; nothing here knows a tool.

Sizes
    ``TABLET_SIZES``  the four tablet viewports as ``{"width", "height"}`` dicts, in the
    order 768x1024, 1024x768, 820x1180, 1366x1024; ``TABLET_IDS`` their ids. Use::

        @pytest.mark.parametrize("size", TABLET_SIZES, ids=TABLET_IDS)
        def test_x(page, size):
            page.set_viewport_size(size)

    ``size_id(size)`` gives the id of one size ("768x1024").

Taps the way an iPad makes them
    ``safari_tap(locator)``
        Dispatches a ``click`` on the element without moving focus: iPad Safari leaves
        focus in an edited field while the tapped button's handler runs.
    ``edit_then_tap(field, text, button, blur=True)``
        Types ``text`` into ``field`` (replacing what was there), Safari-taps ``button``
        while the field still has focus, then (``blur=True``) lets the focus leave as
        the next tap elsewhere would, so a late ``blur``/``change`` fires.
    ``double_tap(page, locator, gap_ms=90)``
        Two quick touch taps at the centre of where ``locator`` is now; the second
        lands on whatever is at that point after the first (a new button included).

Checks
    ``assert_on_screen(page, *locators, uncovered=True, ignore=".toast-area")``
        Every element the locators match is visible, and its bounding box lies fully
        inside the viewport as the page is now (nothing is scrolled to find it). With
        ``uncovered`` the element is also the one a finger at its centre would hit
        (not hidden under a sticky bar or an overlay); ``ignore`` is a selector of
        what may cover it, by default the transient toasts.
    ``assert_no_traceback(page)``
        No Python traceback anywhere in the page's text, no PyScript error box
        (``.py-error``).
    ``assert_app_ok(page)``
        ``assert_no_traceback`` and the app is still ready (``html[data-ready=true]``),
        shows no "something went wrong" box (``[data-testid=app-error]``,
        ``.error-box``) and no "That did not work" bug toast.

The battery
    ``every_field_then_every_button(page, root_selector, reset=None, ...)``
        For the visible text/number fields and buttons inside ``root_selector``: every
        field is typed into and, while it keeps focus, a button is Safari-tapped, then
        the focus leaves; the page must stay healthy (``assert_app_ok``) after each
        pair. Every field and every button is used at least once (bounded: buttons
        are taken per distinct ``data-action`` up to ``per_action`` of each, pairs up
        to ``max_pairs``). When a pair's field or button is no longer on the screen
        (a tap moved on), ``reset()`` is called to bring the screen back; make it
        cheap (an in-app step or a hash-route change, not a page reload). Returns the
        number of pairs tapped.

Typical use for a new table::

    from .tablet import TABLET_IDS, TABLET_SIZES, assert_on_screen, every_field_then_every_button

    @pytest.mark.parametrize("size", TABLET_SIZES, ids=TABLET_IDS)
    def test_tablet_battery(page, base_url, size):
        page.set_viewport_size(size)
        open_app(page, base_url + "#/battle")
        assert every_field_then_every_button(page, "#app-battle", reset=...) > 0
"""

from __future__ import annotations

import re
import time

#: The four tablet viewports every play screen must fit (CSS pixels).
TABLET_SIZES: list[dict[str, int]] = [
    {"width": 768, "height": 1024},   # iPad portrait
    {"width": 1024, "height": 768},   # iPad landscape
    {"width": 820, "height": 1180},   # iPad Air portrait
    {"width": 1366, "height": 1024},  # iPad Pro 12.9" landscape
]


def size_id(size: dict[str, int]) -> str:
    """``{"width": 768, "height": 1024}`` → ``"768x1024"``."""
    return f"{size['width']}x{size['height']}"


#: Ids for ``pytest.mark.parametrize(..., ids=TABLET_IDS)``.
TABLET_IDS: list[str] = [size_id(s) for s in TABLET_SIZES]

#: What a Python traceback looks like on a page.
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|File \"[^\"]+\.py\", line \d+|"
                       r"\b(NotFoundError|PythonError|JsException)\b")

READY = "html[data-ready='true']"

#: Text fields the battery types into (buttons it taps are ``button`` elements).
FIELDS = ("input[type=text]:not([readonly]), input[type=number], input[type=search], input[type=tel], "
          "input:not([type]), textarea")


# ---------------------------------------------------------------- taps

def safari_tap(locator) -> None:
    """A tap as iPad Safari delivers it: ``click`` fires, the focused field keeps focus."""
    locator.dispatch_event("click")


def edit_then_tap(field_locator, text: str, button_locator, blur: bool = True) -> None:
    """Type ``text`` into a field, then Safari-tap a button while the field has focus.

    ``blur`` then moves the focus away (as the next tap elsewhere would), so a field
    that survived the tap fires its late ``change``/``blur`` with the typed text.
    """
    field_locator.fill(text)
    safari_tap(button_locator)
    if blur:
        field_locator.page.evaluate("() => document.activeElement && document.activeElement.blur()")


def double_tap(page, locator, gap_ms: int = 90) -> None:
    """Two quick touch taps at the same screen point (the centre of ``locator`` now).

    The second tap is not aimed at an element: it lands on whatever the first tap
    left at that point, exactly as a finger does.
    """
    box = locator.bounding_box()
    assert box is not None, "double_tap: the element is not on the page"
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    time.sleep(gap_ms / 1000)
    page.touchscreen.tap(x, y)


# ---------------------------------------------------------------- checks

_ON_SCREEN = r"""(els, [uncovered, ignore]) => els.map(el => {
    const r = el.getBoundingClientRect();
    const name = (el.getAttribute('aria-label') || el.getAttribute('data-card') || el.innerText || el.tagName)
        .replace(/\s+/g, ' ').trim().slice(0, 50);
    const w = window.innerWidth, h = window.innerHeight;
    const problems = [];
    if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') problems.push('not visible');
    else if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5)
        problems.push(`box ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)} `
                      + `outside the ${w}x${h} viewport`);
    else if (uncovered) {
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        if (hit && !el.contains(hit) && !hit.contains(el) && !(ignore && hit.closest(ignore)))
            problems.push(`covered by <${hit.tagName.toLowerCase()} class="${hit.className}">`);
    }
    return problems.length ? `${name}: ${problems.join(', ')}` : null;
}).filter(x => x)"""


def assert_on_screen(page, *locators, uncovered: bool = True, ignore: str | None = ".toast-area") -> None:
    """Every element matched is fully inside the viewport as the page is scrolled now.

    ``ignore``: what may cover an element without counting (by default the
    transient toasts, which sit at the top over the navigation and go by themselves).
    """
    problems: list[str] = []
    for locator in locators:
        count = locator.count()
        if count == 0:
            problems.append(f"{locator}: nothing matched")
            continue
        problems += locator.evaluate_all(_ON_SCREEN, [uncovered, ignore])
    scroll = page.evaluate("[scrollX, scrollY]")
    assert not problems, f"off screen at {page.viewport_size} (scroll {scroll}):\n" + "\n".join(problems)


def assert_no_traceback(page) -> None:
    """No Python traceback in the page's text, and no PyScript error box."""
    assert page.locator(".py-error").count() == 0, page.locator(".py-error").first.inner_text()[:500]
    text = page.evaluate("document.body.innerText")
    found = TRACEBACK.search(text)
    assert found is None, f"a traceback is on screen: …{text[max(0, found.start() - 200):found.end() + 200]}…"


def assert_app_ok(page) -> None:
    """No traceback, still ready, no bug message (box or toast)."""
    assert_no_traceback(page)
    assert page.locator(READY).count() == 1, "the app is no longer ready"
    broken = page.locator("[data-testid=app-error], .error-box")
    assert broken.count() == 0, broken.first.inner_text()[:300]
    bug_toasts = page.locator(".toast.error", has_text=re.compile("did not work|went wrong", re.I))
    assert bug_toasts.count() == 0, bug_toasts.first.inner_text()[:300]


# ---------------------------------------------------------------- the battery

_DESCRIBE = """(root, fields) => {
    const visible = el => el.offsetParent !== null && getComputedStyle(el).visibility !== 'hidden';
    const css = s => CSS.escape(s);
    const describe = el => {
        if (el.id) return '#' + css(el.id);
        for (const a of ['data-field', 'data-action', 'data-open-rules']) {
            if (el.hasAttribute(a)) {
                let s = `${el.tagName.toLowerCase()}[${a}="${css(el.getAttribute(a))}"]`;
                if (el.hasAttribute('data-arg')) s += `[data-arg="${css(el.getAttribute('data-arg'))}"]`;
                if (el.hasAttribute('data-rule')) s += `[data-rule="${css(el.getAttribute('data-rule'))}"]`;
                return s;
            }
        }
        return null;
    };
    const pick = sel => [...root.querySelectorAll(sel)].filter(visible).map(el => ({
        selector: describe(el), text: (el.innerText || el.getAttribute('aria-label') || '').trim().slice(0, 40),
        action: el.getAttribute('data-action') || el.getAttribute('data-open-rules') || el.innerText.trim(),
        type: el.type || '',
    }));
    return {fields: pick(fields), buttons: pick('button:not([disabled])')};
}"""


_HEALTH = r"""() => {
    if (document.querySelector('.py-error')) return 'PyScript error box: ' + document.querySelector('.py-error').textContent.slice(0, 300);
    const text = document.body.innerText;
    const tb = text.search(/Traceback \(most recent call last\)|File "[^"]+\.py", line \d+|\b(NotFoundError|PythonError|JsException)\b/);
    if (tb >= 0) return 'traceback on screen: ' + text.slice(Math.max(0, tb - 200), tb + 300);
    if (document.documentElement.dataset.ready !== 'true') return 'the app is no longer ready';
    const box = document.querySelector('[data-testid=app-error], .error-box');
    if (box) return 'error box: ' + box.innerText.slice(0, 300);
    for (const t of document.querySelectorAll('.toast.error'))
        if (/did not work|went wrong/i.test(t.innerText)) return 'bug toast: ' + t.innerText.slice(0, 300);
    return null;
}"""

_FIND = r"""(root, sel, text, kind) => {
    const visible = el => el.offsetParent !== null && getComputedStyle(el).visibility !== 'hidden';
    let all = [...root.querySelectorAll(kind)].filter(visible);
    if (kind.startsWith('button')) all = all.filter(el => !el.disabled);
    return all.find(el => sel ? el.matches(sel) : (el.innerText || el.getAttribute('aria-label') || '').trim().slice(0, 40) === text) || null;
}"""

_PROBE = r"""([rootSel, field, button, fields]) => {
    const root = document.querySelector(rootSel);
    if (!root) return null;
    const find = """ + _FIND + r""";
    const f = find(root, field.selector, field.text, fields)
        || [...root.querySelectorAll(fields)].find(el => el.offsetParent !== null);
    const b = find(root, button.selector, button.text, 'button');
    if (!f || !b) return null;
    for (const old of document.querySelectorAll('[data-kit-field]')) old.removeAttribute('data-kit-field');
    f.setAttribute('data-kit-field', '1');
    return f.type || 'text';
}"""

_TAP = r"""([rootSel, button]) => {
    const root = document.querySelector(rootSel);
    const b = root && (""" + _FIND + r""")(root, button.selector, button.text, 'button');
    if (!b) return 'gone';
    b.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, view: window}));
    if (document.activeElement && document.activeElement !== document.body) document.activeElement.blur();
    return (""" + _HEALTH + r""")();
}"""


def every_field_then_every_button(page, root_selector: str, *, reset=None, text: str = "Zz 9",
                                  number: str = "7", per_action: int = 2, max_pairs: int = 40,
                                  skip: tuple[str, ...] = ("Export",)) -> int:
    """Type into every field, Safari-tap every button while it has focus; stay healthy.

    The typing is real (Playwright ``fill``: the browser counts it as the user's edit,
    so removing the focused field fires its ``blur``/``change`` as on a tablet); the
    tap, the focus leaving and the health check run in one step in the page.
    ``skip``: button texts (regular expressions, matched at the start) not to tap,
    e.g. ones that leave the page or open a native dialog. Returns the pairs tapped.
    """
    found = page.locator(root_selector).evaluate(_DESCRIBE, FIELDS)
    fields = list(found["fields"])
    skip_re = [re.compile(s) for s in skip]
    buttons, per = [], {}
    for b in found["buttons"]:
        if any(r.match(b["text"]) for r in skip_re):
            continue
        per[b["action"]] = per.get(b["action"], 0) + 1
        if per[b["action"]] <= per_action:
            buttons.append(b)
    assert fields, f"no text or number field to type into in {root_selector}"
    assert buttons, f"no button to tap in {root_selector}"
    pairs = 0
    for k in range(min(max(len(fields), len(buttons)), max_pairs)):
        field_item, button_item = fields[k % len(fields)], buttons[k % len(buttons)]
        args = [root_selector, field_item, button_item, FIELDS]
        kind = page.evaluate(_PROBE, args)
        if kind is None and reset is not None:
            reset()
            kind = page.evaluate(_PROBE, args)
        if kind is None:
            continue  # this button is not on this screen after all
        page.locator("[data-kit-field='1']").fill(number if kind == "number" else text, timeout=5000)
        problem = page.evaluate(_TAP, [root_selector, button_item])
        if problem == "gone":
            continue  # typing changed the screen (a live update): the button is not there now
        assert problem is None, (f"after typing into {field_item['selector'] or field_item['text']!r} and "
                                 f"tapping {button_item['text']!r} ({button_item['selector']}): {problem}")
        pairs += 1
    assert_app_ok(page)
    return pairs
