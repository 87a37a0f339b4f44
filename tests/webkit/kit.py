"""The tablet test kit for WebKit (selenium): the same taps and checks as the
Chromium kit (``tests/e2e/tablet.py``), on WebKitGTK, the engine of every iPad browser.

Every function takes the selenium ``driver`` and ``WebElement`` s. A new table adds
its WebKit checks with a line or two::

    from .kit import assert_app_ok, button, edit_then_tap, field
    edit_then_tap(driver, field(driver, "setup:army.0.name"), "Jibril", button(driver, "Start"))
    assert_app_ok(driver)

Taps the way an iPad makes them
    ``safari_tap(driver, element)``
        Dispatches a ``click`` on the element from JavaScript: the focused field keeps
        focus while the handler runs, as iPad Safari does (a WebDriver click in
        WebKitGTK moves focus to the button first, so it would hide the difference).
    ``edit_then_tap(driver, field, text, button, blur=True)``
        Focuses the field, selects what is there and types ``text`` with real key
        events, Safari-taps ``button`` while the field still has focus, then
        (``blur=True``) lets the focus leave as the next tap elsewhere would.
    ``double_tap(driver, element, gap_ms=90)``
        Two quick taps at the centre of where ``element`` is now; each one clicks
        whatever is at that point when it lands (``elementFromPoint``), so the second
        lands on what the first one put there, as a finger does.

Checks
    ``assert_on_screen(driver, *elements, uncovered=True)``
        Each element is visible and fully inside the viewport as the page is scrolled
        now; with ``uncovered`` it is also what a finger at its centre would hit.
    ``assert_no_traceback(driver)``
        No Python traceback in the page's text, no PyScript error box (``.py-error``).
    ``assert_app_ok(driver)``
        ``assert_no_traceback``, still ready, no "something went wrong" box, no
        "That did not work" toast, and no uncaught script error since the test began
        (selenium has no console for WebKitGTK: the suite's error hook records them).
    ``assert_taps_big_enough(driver, root="body", what="")``
        Every visible control under ``root`` is at least 44×44 CSS px (the same
        measuring code as the Chromium kit: tests/touch_checks.py).
    ``assert_rule_link_lands(driver, link)``
        Taps a rule link: its clause's heading lands in sight below the sticky bar with
        the focus, and "Back to the table" returns to where the tap was (issue 34).

Finding things
    ``button(driver, name)`` the visible, enabled button whose text or aria-label is
    ``name`` (or starts with it, ``prefix=True``); ``field(driver, data_field)`` the
    visible control with that ``data-field``; ``visible(driver, css)`` the visible
    elements matching a selector.
"""

from __future__ import annotations

import re
import time

from selenium.common.exceptions import ElementClickInterceptedException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from engine import codec
from tests.touch_checks import RULE_LANDING, SMALL_CONTROLS

from .conftest import script_errors, wait_for

#: The smallest tap target at the table, in CSS px (the Chromium kit's MIN_TAP).
MIN_TAP = 44

#: What a Python traceback looks like on a page (the Chromium kit's pattern).
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|File \"[^\"]+\.py\", line \d+|"
                       r"\b(NotFoundError|PythonError|JsException)\b")

_CLICK_JS = """arguments[0].dispatchEvent(new MouseEvent('click',
    {bubbles: true, cancelable: true, composed: true, view: window, detail: 1}));"""


# ---------------------------------------------------------------- finding

def saved_game(driver, route: str):
    """The game ``route``'s table has open, as its autosave holds it (the save the app
    remembers as that table's last)."""
    raw = driver.execute_script("const k = localStorage.getItem('ct:v1:last:' + arguments[0]);"
                                "return k && localStorage.getItem('ct:v1:slot:' + k)", route)
    return codec.loads(raw)[0]


def visible(driver, css: str) -> list:
    """The elements matching ``css`` that are displayed."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].filter(e => e.offsetParent !== null"
        " && getComputedStyle(e).visibility !== 'hidden')", css)


def button(driver, name: str, prefix: bool = False, timeout: float = 10):
    """The visible, enabled button named ``name`` (its text or aria-label)."""
    return wait_for(driver, """
        const [name, prefix] = [arguments[0], arguments[1]];
        return [...document.querySelectorAll('button')].find(b => {
          if (b.disabled || b.offsetParent === null) return false;
          const label = (b.getAttribute('aria-label') || b.innerText || '').trim();
          return prefix ? label.startsWith(name) : label === name;
        }) || null""", name, prefix, timeout=timeout, message=f"a button {name!r}")


def field(driver, data_field: str, timeout: float = 10):
    """The visible control with ``data-field=data_field``."""
    return wait_for(driver, "return [...document.querySelectorAll(`[data-field='${arguments[0]}']`)]"
                            ".find(e => e.offsetParent !== null) || null", data_field,
                    timeout=timeout, message=f"a field {data_field!r}")


# ---------------------------------------------------------------- taps

def tap(driver, element) -> None:
    """A WebDriver click (real hit-testing) on ``element`` scrolled to the middle of the
    viewport (WebKit scrolls it only to an edge, where the sticky toolbar may cover it)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    try:
        element.click()
    except ElementClickInterceptedException:
        hit = driver.execute_script(
            "const r = arguments[0].getBoundingClientRect();"
            "const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
            "return [scrollY, JSON.stringify(r), e && e.outerHTML.slice(0, 200)]", element)
        raise AssertionError(f"the tap on {element.text!r} was intercepted: {hit}") from None


def hold(driver, element, seconds: float = 1.3) -> None:
    """A press and hold on ``element`` (static/shell.js data-hold-action, about 1 s): the
    pointer goes down in its middle, stays ``seconds``, and lifts."""
    from selenium.webdriver.common.action_chains import ActionChains

    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    ActionChains(driver).click_and_hold(element).pause(seconds).release().perform()


def safari_tap(driver, element) -> None:
    """A tap as iPad Safari delivers it: ``click`` fires, the focused field keeps focus."""
    driver.execute_script(_CLICK_JS, element)


def type_into(driver, element, text: str) -> None:
    """Focus a field, select its text and type ``text`` over it (real key events, no blur)."""
    driver.execute_script("arguments[0].focus(); arguments[0].select && arguments[0].select()", element)
    element.send_keys(Keys.CONTROL, "a")
    element.send_keys(text)
    value = element.get_property("value")
    assert value == text, f"typed {text!r}, the field holds {value!r}"


def edit_then_tap(driver, field_element, text: str, button_element, blur: bool = True) -> None:
    """Type ``text`` into a field, then Safari-tap a button while the field has focus.

    ``blur`` then moves the focus away (as the next tap elsewhere would), so a field
    that survived the tap fires its late ``change``/``blur`` with the typed text.
    """
    type_into(driver, field_element, text)
    focused = driver.execute_script("return document.activeElement === arguments[0]", field_element)
    assert focused, "the field lost focus before the tap"
    safari_tap(driver, button_element)
    if blur:
        driver.execute_script("document.activeElement && document.activeElement.blur()")


def double_tap(driver, element, gap_ms: int = 90) -> list[str]:
    """Two quick taps at the centre of ``element`` as it is now; returns what each hit.

    Each tap clicks whatever ``document.elementFromPoint`` finds at that point when it
    lands, so the second tap hits what the first one left there (a new button included).
    """
    point = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]",
        element)
    hits = []
    for i in range(2):
        if i:
            time.sleep(gap_ms / 1000)
        hits.append(driver.execute_script("""
            const el = document.elementFromPoint(arguments[0], arguments[1]);
            if (!el) return '(nothing)';
            el.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, composed: true,
                view: window, detail: arguments[2], clientX: arguments[0], clientY: arguments[1]}));
            return (el.closest('button') || el).innerText.trim().slice(0, 60) || el.tagName""",
            point[0], point[1], i + 1))
    return hits


# ---------------------------------------------------------------- checks

# One element per call: WebKitWebDriver does not turn element references nested in an
# array argument back into elements.
_ON_SCREEN = """const [el, uncovered] = [arguments[0], arguments[1]];
return [el].map(el => {
    const r = el.getBoundingClientRect();
    const name = (el.getAttribute('aria-label') || el.innerText || el.tagName).trim().slice(0, 50);
    const w = window.innerWidth, h = window.innerHeight;
    const problems = [];
    if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') problems.push('not visible');
    else if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5)
        problems.push(`box ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)} `
                      + `outside the ${w}x${h} viewport`);
    else if (uncovered) {
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        if (hit && !el.contains(hit) && !hit.contains(el))
            problems.push(`covered by <${hit.tagName.toLowerCase()} class="${hit.className}">`);
    }
    return problems.length ? `${name}: ${problems.join(', ')}` : null;
}).filter(x => x)"""


def assert_on_screen(driver, *elements, uncovered: bool = True) -> None:
    """Every element is fully inside the viewport as the page is scrolled now."""
    assert elements, "assert_on_screen: no element given"
    problems = [p for el in elements for p in driver.execute_script(_ON_SCREEN, el, uncovered)]
    state = driver.execute_script("return [innerWidth, innerHeight, scrollX, scrollY]")
    assert not problems, (f"off screen at {state[0]}x{state[1]} (scroll {state[2:]}):\n" + "\n".join(problems))


def assert_no_traceback(driver) -> None:
    """No Python traceback in the page's text, and no PyScript error box."""
    boxes = driver.find_elements(By.CSS_SELECTOR, ".py-error")
    assert not boxes, boxes[0].text[:500]
    text = driver.execute_script("return document.body.innerText")
    found = TRACEBACK.search(text)
    assert found is None, f"a traceback is on screen: …{text[max(0, found.start() - 200):found.end() + 300]}…"


def assert_app_ok(driver) -> None:
    """No traceback, still ready, no bug message (box or toast), no uncaught script error."""
    assert_no_traceback(driver)
    assert driver.execute_script("return document.documentElement.dataset.ready") == "true", \
        "the app is no longer ready"
    broken = visible(driver, "[data-testid=app-error], .error-box")
    assert not broken, broken[0].text[:300]
    toasts = [t.text for t in visible(driver, ".toast.error")]
    bugs = [t for t in toasts if re.search("did not work|went wrong", t, re.I)]
    assert not bugs, bugs[0][:300]
    errors = script_errors(driver)
    assert not errors, f"uncaught script errors: {errors[:3]}"


def assert_taps_big_enough(driver, root: str = "body", what: str = "") -> None:
    """Every visible control under ``root`` is at least ``MIN_TAP`` × ``MIN_TAP`` CSS px."""
    small = driver.execute_script(f"return ({SMALL_CONTROLS})(arguments[0], arguments[1])", root, MIN_TAP)
    size = driver.execute_script("return [innerWidth, innerHeight]")
    assert not small, f"taps smaller than {MIN_TAP}×{MIN_TAP} px at {size} {what}:\n" + "\n".join(small)


def wait_scrolled(driver, timeout: float = 5, moved_from: float | None = None) -> None:
    """Until the page's scroll has stopped moving (a smooth scroll has landed). With
    ``moved_from``: first until it has left that position (WebKitGTK starts a smooth scroll
    a few hundred ms after the call)."""
    end = time.monotonic() + timeout
    if moved_from is not None:
        while time.monotonic() < end and driver.execute_script("return scrollY") == moved_from:
            time.sleep(0.05)
    last, still = None, 0
    while time.monotonic() < end:
        now = driver.execute_script("return scrollY")
        still = still + 1 if now == last else 0
        if still >= 6:
            return
        last = now
        time.sleep(0.05)


def assert_rule_link_lands(driver, link) -> None:
    """Tap ``link`` (a rule chip or a Rules button): the clause lands below the bar with the
    focus; "Back to the table" returns to where the page was, the focus on the link."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); document.activeElement.blur()", link)
    wait_scrolled(driver)
    before = driver.execute_script("return scrollY")
    rule = link.get_attribute("data-rule")
    target = f"#rule-{rule}" if rule else f"#rules-{link.get_attribute('data-open-rules')} > summary"
    tap(driver, link)
    wait_scrolled(driver, moved_from=before)
    landing = driver.execute_script(f"return ({RULE_LANDING})(arguments[0])", target)
    assert not landing["problems"], f"{target}: " + "; ".join(landing["problems"])
    back = driver.find_element(By.ID, "rules-back")
    assert_on_screen(driver, back)
    landed = driver.execute_script("return scrollY")
    back.click()
    wait_scrolled(driver, moved_from=landed)
    after = driver.execute_script("return scrollY")
    assert abs(after - before) <= 2, f"Back to the table: scroll {after}, the tap was at {before}"
    assert not back.is_displayed()
    assert driver.execute_script("return document.activeElement === arguments[0]", link), \
        "Back to the table: the focus is not on the link"


def text_of(driver, css: str) -> str:
    """The text of the first visible element matching ``css`` ('' when there is none)."""
    try:
        found = visible(driver, css)
        return found[0].text if found else ""
    except StaleElementReferenceException:
        return text_of(driver, css)
