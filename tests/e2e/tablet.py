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
    ``assert_taps_big_enough(page, root="body", what="")``
        Every visible control under ``root`` is a tap target of at least 44×44 CSS px
        (``MIN_TAP``; tests/touch_checks.py ``SMALL_CONTROLS``, the same code as WebKit's).
    ``assert_rule_link_lands(page, link)``
        Taps a rule link (a chip, a Rules button, a cross-reference): its clause's id and
        title end in sight below the sticky bar with the focus, and "Back to the table"
        returns the page to where it was, the focus on the link (issue 34).

Accessibility beyond axe (issue 14)
    ``assert_focus(page, locator)``
        ``document.activeElement`` is the element (waits up to 2 s).
    ``assert_focus_visible(page, locator, path=None)``
        Focused by keyboard, its computed outline/box-shadow and a screenshot of it
        and its surroundings differ from the unfocused state (returns changed pixels).
    ``assert_escape_closes_drawer(page, toggle, drawer)``
        Enter opens the drawer (aria-expanded, aria-controls = its id, a named region
        or dialog); Escape closes it and the focus is back on the toggle.
    ``assert_curtain_announced(page, curtain, text)``
        The curtain's button has the focus and its description (or the curtain's
        live/dialog role) says ``text``.
    ``contrasts(locator)`` / ``assert_contrast(locator, what, graphic=False)``
        WCAG contrast of real computed colours: the element's colour over the
        background its ancestors really paint (alpha, gradient stops — the worst
        counts — and opacity); 4.5:1 for text, 3:1 for large text and graphics.
    ``KeyboardOnly(page)``
        ``.activate(locator, key)`` Tabs to a control and presses Enter or Space,
        counting presses (``.presses``, ``.steps``).

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

from tests.touch_checks import RULE_LANDING, SMALL_CONTROLS

#: The smallest tap target at the table, in CSS px (BRIEF: every control at least 44×44).
MIN_TAP = 44

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


def assert_taps_big_enough(page, root: str = "body", what: str = "") -> None:
    """Every visible control under ``root`` is at least ``MIN_TAP`` × ``MIN_TAP`` CSS px."""
    small = page.evaluate(f"([r, m]) => ({SMALL_CONTROLS})(r, m)", [root, MIN_TAP])
    assert not small, (f"taps smaller than {MIN_TAP}×{MIN_TAP} px at {page.viewport_size} {what}:\n"
                       + "\n".join(small))


def wait_scrolled(page, timeout_ms: int = 3000) -> None:
    """Until the page's scroll stops moving (a smooth scroll has landed)."""
    page.wait_for_function("""() => new Promise(done => {
        let last = scrollY, still = 0;
        const tick = () => { if (scrollY === last) { if (++still >= 4) return done(true); }
                             else { still = 0; last = scrollY; }
                             requestAnimationFrame(tick); };
        requestAnimationFrame(tick);
    })""", timeout=timeout_ms)


def assert_rule_link_lands(page, link) -> None:
    """Tap ``link``; its clause lands below the bar with the focus; Back returns (issue 34)."""
    # Mid-screen, clear of the sticky bar (a click on a covered link would scroll first).
    link.evaluate("el => el.scrollIntoView({block: 'center'})")
    wait_scrolled(page)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    before = page.evaluate("[scrollX, scrollY]")
    rule = link.get_attribute("data-rule")
    href = link.get_attribute("href")
    if rule:
        target = f"#rule-{rule}"
    elif href and href.startswith("#rule-"):
        target = href
    else:
        target = f"#rules-{link.get_attribute('data-open-rules')} > summary"
    link.click()
    wait_scrolled(page)
    landing = page.evaluate(RULE_LANDING, target)
    assert not landing["problems"], (f"{target} at {page.viewport_size}: " + "; ".join(landing["problems"]))
    back = page.locator("#rules-back")
    assert_on_screen(page, back)
    back.click()
    wait_scrolled(page)
    after = page.evaluate("[scrollX, scrollY]")
    assert abs(after[1] - before[1]) <= 2, \
        f"Back to the table at {page.viewport_size}: scroll {after}, the tap was at {before} ({target})"
    assert back.is_hidden()
    assert link.evaluate("el => document.activeElement === el"), "Back to the table: the focus is not on the link"


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


# ---------------------------------------------------------------- accessibility (issue 14)
# What axe cannot see: where the focus goes, whether it shows, Escape, curtains, and
# the real contrast of symbols (axe skips symbol-only text such as ♥).

_ACTIVE = """() => { const a = document.activeElement;
    if (!a || a === document.body) return '<body>';
    return `<${a.tagName.toLowerCase()} ${['data-action', 'data-arg', 'data-focus', 'id', 'class']
        .filter(k => a.hasAttribute(k)).map(k => `${k}="${a.getAttribute(k)}"`).join(' ')}> `
        + (a.innerText || a.getAttribute('aria-label') || '').replace(/\\s+/g, ' ').trim().slice(0, 60); }"""


def focused(page) -> str:
    """A short description of ``document.activeElement`` (for messages)."""
    return page.evaluate(_ACTIVE)


def has_focus(locator) -> bool:
    """Whether the (first) element of ``locator`` is ``document.activeElement``."""
    return locator.first.evaluate("el => el === document.activeElement")


def assert_focus(page, locator, timeout_ms: int = 2000, message: str = "") -> None:
    """``document.activeElement`` is the element ``locator`` matches (first match)."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        if locator.count() and has_focus(locator):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{message} focus is on {focused(page)!r}, not on {locator}")
        time.sleep(0.05)


def assert_escape_closes_drawer(page, toggle, drawer) -> None:
    """Open a drawer with its toggle (keyboard), check its wiring, press Escape: the
    drawer is gone and the focus is back on the toggle (WCAG 2.1.1, 2.4.3)."""
    toggle.focus()
    page.keyboard.press("Enter")
    drawer.wait_for(state="visible", timeout=3000)
    assert toggle.get_attribute("aria-expanded") == "true", "an open drawer's toggle says aria-expanded=true"
    controls = toggle.get_attribute("aria-controls")
    assert controls, "a drawer's toggle names it with aria-controls"
    assert drawer.get_attribute("id") == controls, f"aria-controls={controls!r} is not the drawer"
    assert drawer.get_attribute("role") in ("dialog", "region"), "a drawer is a dialog or a region"
    assert drawer.get_attribute("aria-labelledby") or drawer.get_attribute("aria-label"), "a drawer has a name"
    page.keyboard.press("Escape")
    drawer.wait_for(state="detached", timeout=3000)
    assert toggle.get_attribute("aria-expanded") == "false"
    assert toggle.get_attribute("aria-controls") in (None, controls)
    assert_focus(page, toggle, message="after Escape closed the drawer:")


_DESCRIPTION = """el => { const ids = (el.getAttribute('aria-describedby') || '').split(/\\s+/).filter(x => x);
    return ids.map(id => { const t = document.getElementById(id); return t ? t.textContent : ''; }).join(' '); }"""


def assert_curtain_announced(page, curtain, text) -> None:
    """A pass-the-tablet curtain takes the focus (its button) and is announced: the
    focused control's description (aria-describedby) or the curtain's live/dialog role
    carries ``text`` (a regular expression), so a screen reader says whom to pass to."""
    button = curtain.locator("button").first
    assert_focus(page, button, message="a new curtain:")
    described = button.evaluate(_DESCRIPTION)
    live = curtain.evaluate("c => ['dialog', 'alertdialog', 'status', 'alert'].includes(c.getAttribute('role'))"
                            " || !!c.getAttribute('aria-live')")
    spoken = described + " " + (curtain.inner_text() if live else "")
    assert re.search(text, spoken), f"the curtain does not announce {text!r}: {spoken!r}"


_STYLE = """el => { const cs = getComputedStyle(el);
    return [cs.outlineStyle, cs.outlineWidth, cs.outlineColor, cs.outlineOffset, cs.boxShadow].join(' | '); }"""


def _png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and raw rows of an 8-bit RGB/RGBA, non-interlaced PNG (Playwright's)."""
    import struct
    import zlib

    pos, idat, width, height, channels = 8, b"", 0, 0, 4
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), "an 8-bit RGB(A) PNG"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows


def pixels_changed(before: bytes, after: bytes) -> int:
    """How many pixels differ between two PNG screenshots of the same size."""
    w1, h1, a = _png_pixels(before)
    w2, h2, b = _png_pixels(after)
    assert (w1, h1) == (w2, h2), "screenshots of different sizes"
    step = len(a[0]) // w1
    return sum(1 for ra, rb in zip(a, b) for x in range(w1) if ra[x * step:x * step + 3] != rb[x * step:x * step + 3])


def assert_focus_visible(page, locator, path: str | None = None, min_pixels: int = 150) -> int:
    """Focused by keyboard, the element looks different from itself unfocused: its
    computed outline/box-shadow differ, and a screenshot of it and its surroundings
    changes in at least ``min_pixels`` pixels (WCAG 2.4.7). ``path``: also save the
    focused screenshot there. Returns the pixels that changed."""
    el = locator.first
    el.scroll_into_view_if_needed()
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.mouse.move(0, 0)
    box = el.bounding_box()
    pad = 14
    clip = {"x": max(0, box["x"] - pad), "y": max(0, box["y"] - pad),
            "width": box["width"] + 2 * pad, "height": box["height"] + 2 * pad}
    plain_style, plain = el.evaluate(_STYLE), page.screenshot(clip=clip, animations="disabled")
    page.keyboard.press("Shift")  # a key press: the next focus counts as keyboard focus (:focus-visible)
    el.focus()
    assert el.evaluate("e => e.matches(':focus-visible')"), "the element did not get keyboard focus"
    focus_style, ring = el.evaluate(_STYLE), page.screenshot(clip=clip, animations="disabled", path=path)
    el.evaluate("e => e.blur()")
    assert focus_style != plain_style, f"focus changes nothing in the computed style: {plain_style}"
    changed = pixels_changed(plain, ring)
    assert changed >= min_pixels, f"the focus ring changes only {changed} pixels around {locator}"
    return changed


# WCAG 2.1 relative luminance and contrast, on the colours the browser computed (a
# light-dark() colour is resolved by then). The background is what is really behind
# the text: ancestors' backgrounds composited from the page down (alpha included),
# every stop of a gradient (the worst one counts), and opacity of the element and its
# ancestors fading text and background into what lies beneath.
CONTRAST_JS = r"""(el) => {
    const parse = c => { const m = (c || '').match(/[\d.]+/g); if (!m) return [0, 0, 0, 0];
        const v = m.map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
    const over = (top, under) => { const a = top[3];
        return [0, 1, 2].map(i => top[i] * a + under[i] * (1 - a)).concat([1]); };
    const mix = (c, under, o) => [0, 1, 2].map(i => c[i] * o + under[i] * (1 - o)).concat([1]);
    const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
    const ratio = (a, b) => { const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x); return (hi + 0.05) / (lo + 0.05); };
    const chain = []; for (let n = el; n && n.nodeType === 1; n = n.parentElement) chain.unshift(n);
    const layers = chain.map(n => { const cs = getComputedStyle(n);
        const stops = cs.backgroundImage.includes('gradient')
            ? (cs.backgroundImage.match(/rgba?\([^)]*\)/g) || []).map(parse) : null;
        return {bgs: stops && stops.length ? stops : [parse(cs.backgroundColor)], opacity: Number(cs.opacity)}; });
    const cs = getComputedStyle(el);
    const fg = parse(cs.color);
    // Every combination of gradient stops (in practice one striped element).
    let combos = [[]];
    for (const layer of layers) combos = combos.flatMap(c => layer.bgs.map(b => c.concat([b])));
    const paint = (bgs, text) => { const go = (i, under) => {
            if (i === layers.length) return text ? over(text, under) : under;
            const here = over(bgs[i], under);
            return mix(go(i + 1, here), under, layers[i].opacity); };
        return go(0, [255, 255, 255, 1]); };
    let worst = Infinity, worstBg = null;
    for (const bgs of combos) { const r = ratio(paint(bgs, fg), paint(bgs, null));
        if (r < worst) { worst = r; worstBg = paint(bgs, null); } }
    const size = parseFloat(cs.fontSize), bold = Number(cs.fontWeight) >= 700;
    const large = size >= 24 || (bold && size >= 18.66);
    const hex = c => '#' + c.slice(0, 3).map(v => Math.round(v).toString(16).padStart(2, '0')).join('');
    return {ratio: Math.round(worst * 100) / 100, large, fg: hex(paint(combos[0], fg)), bg: hex(worstBg),
            text: (el.innerText || el.textContent || '').trim().slice(0, 12)};
}"""


def contrasts(locator) -> list[dict]:
    """Measured contrast of every element ``locator`` matches: ``ratio``, ``large``
    (WCAG large text), the effective ``fg``/``bg`` colours and the ``text``."""
    return locator.evaluate_all(f"els => els.filter(e => e.offsetParent !== null || e.getClientRects().length)"
                                f".map({CONTRAST_JS})")


def required_contrast(measure: dict, graphic: bool = False) -> float:
    """WCAG AA: 4.5:1 for text, 3:1 for large text (1.4.3) and for graphics (1.4.11)."""
    return 3.0 if graphic or measure["large"] else 4.5


def assert_contrast(locator, what: str, graphic: bool = False) -> list[dict]:
    """Every element of ``locator`` meets AA on its real background; returns the measures."""
    found = contrasts(locator)
    assert found, f"{what}: nothing matched {locator}"
    low = [m for m in found if m["ratio"] < required_contrast(m, graphic)]
    assert not low, f"{what}: below AA: " + "; ".join(
        f"{m['text']!r} {m['fg']} on {m['bg']} = {m['ratio']}:1" for m in low[:8])
    return found


class KeyboardOnly:
    """Drives a page with Tab, Enter and Space only, counting every key press."""

    KEYS = ("Tab", "Enter", "Space")

    def __init__(self, page, limit: int = 400):
        self.page, self.limit, self.presses, self.steps = page, limit, 0, []

    def press(self, key: str) -> None:
        assert key in self.KEYS, f"{key} is not Tab, Enter or Space"
        self.presses += 1
        assert self.presses <= self.limit, f"more than {self.limit} key presses"
        self.page.keyboard.press(key)

    def tab_to(self, locator, max_tabs: int = 150) -> int:
        """Tab until ``locator`` (its first match) has the focus; returns the Tabs."""
        tabs = 0
        while not has_focus(locator):
            assert tabs < max_tabs, f"{max_tabs} Tabs never reached {locator} (focus on {focused(self.page)!r})"
            self.press("Tab")
            tabs += 1
        return tabs

    def activate(self, locator, key: str = "Enter", label: str = "") -> int:
        """Tab to the control, press ``key``; returns the presses this took."""
        before = self.presses
        tabs = self.tab_to(locator)
        self.press(key)
        self.steps.append((label or str(locator), tabs))
        return self.presses - before
