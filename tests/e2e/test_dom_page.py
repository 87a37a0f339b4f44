"""static/dom.js, the page's side of web/dom.py (issue 33: one call per render).

Python works out what a render changes and sends it as one JSON text; the page carries it
out. The unit tests (tests/web/test_dom.py) check Python's side against a reference reading
of those texts; here the browser's reading is checked against the same reference, text for
text, and the page is shown to forget every node that leaves it.
"""

from __future__ import annotations

import random

from tests.web.test_dom import FakeDocument, FakeNode, _dump
from web import dom
from web.dom import Root, h

from .conftest import TABLET_LANDSCAPE
from .test_solo import person_step, set_up_solo, wait_for_person

TAGS = ["div", "p", "button", "input", "details", "span", "svg", "rect"]
ATTRS = ["class", "title", "value", "checked", "open", "data-key", "hidden", "aria-label"]
WORDS = ["x", "", "<b>bold?</b>", "<img src=x onerror=window.__owned=1>", "Ann & Ben", "é ✓ —"]

#: The page's region, as the browser shows it: what :func:`tests.web.test_dom._dump` says of
#: the reference (the tag, the attributes, the live properties a tree sets, the children).
DUMP_JS = """(region) => {
  const dump = (n) => {
    if (n.nodeType === Node.TEXT_NODE) return n.data;
    const attrs = {}; for (const a of n.attributes) attrs[a.name] = a.value;
    const props = {};
    for (const k of ["value", "checked", "open"]) if (k !== "value" || k in attrs) props[k] = n[k] ?? false;
    return [n.localName, attrs, props, [...n.childNodes].map(dump)];
  };
  return [...region.childNodes].map(dump);
}"""


def _tree(rng: random.Random, depth: int = 3):
    if depth == 0 or rng.random() < 0.3:
        return rng.choice(WORDS)
    # ``open`` and ``checked`` are boolean attributes as views write them (``True``: empty; the
    # browser's live property writes them so)
    attrs = {name: True if name in ("open", "checked") else rng.choice(["a", "b", "", "1"])
             for name in rng.sample(ATTRS, rng.randint(0, 3))}
    tag = rng.choice(TAGS)
    if tag == "input":  # no children in an input: the browser would not show them either
        return h(tag, attrs)
    return h(tag, attrs, [_tree(rng, depth - 1) for _ in range(rng.randint(0, 4))])


def _unique_keys(children: list) -> list:
    """Keys unique among siblings (data-key names a row), as views make them."""
    seen = set()
    for child in children:
        if isinstance(child, dom.VNode):
            key = child.attrs.get("data-key")
            if key is not None and key in seen:
                del child.attrs["data-key"]
            seen.add(key)
            _unique_keys(child.children)
    return children


def _reference(texts: list) -> tuple[Root, FakeDocument]:
    """web/dom.py against the reference reading of its changes, every text kept."""
    doc = FakeDocument()
    apply = doc.apply

    def keep(text):
        texts.append(text)
        apply(text)

    doc.apply = keep
    return Root(FakeNode("section")), doc


def _tuples(dumped):
    """A dump from the page (JSON arrays) as the reference's (tuples)."""
    if isinstance(dumped, str):
        return dumped
    tag, attrs, props, children = dumped
    return (tag, attrs, props, [_tuples(c) for c in children])


def test_the_page_draws_what_the_reference_draws(app, monkeypatch):
    """Random trees patched into random others: the browser's region after each text is
    exactly the reference's, markup in strings stays text, and nothing runs."""
    rng = random.Random(33)
    texts: list[str] = []
    root, doc = _reference(texts)
    monkeypatch.setattr(dom, "_page", lambda: doc)
    app.evaluate("""id => { const region = window.__region = document.createElement('section');
        region.hidden = true; document.body.append(region); ctDom.adopt(id, region) }""", root.page_id)
    for step in range(60):
        before = len(texts)
        root.render(_unique_keys([_tree(rng) for _ in range(rng.randint(0, 5))]))
        for text in texts[before:]:
            app.evaluate("text => ctDom.apply(text)", text)
        shown = app.evaluate(DUMP_JS, app.evaluate_handle("window.__region"))
        expected = [_dump(child) for child in root.el.children]
        assert [_tuples(d) for d in shown] == expected, f"after render {step}"
    assert len(texts) > 50  # (renders that changed nothing send nothing)
    assert app.evaluate("window.__owned") is None
    assert app.evaluate("ctDom.strays()") == 0


def test_the_page_forgets_every_node_that_leaves_it(app, base_url):
    """Cards played, a game undone, routes and screens swapped: every node the page still
    knows is on the page (no leak over an evening's play), and it knows the screens shown."""
    app.set_viewport_size(TABLET_LANDSCAPE)
    app.goto(base_url + "#/conflict")
    app.wait_for_selector("#app-conflict [data-testid=setup]")
    set_up_solo(app, "normal")
    app.get_by_role("button", name="Start the conflict").click()
    for _ in range(3):
        wait_for_person(app)
        person_step(app)
    app.get_by_role("button", name="↶ Undo").click()
    app.goto(base_url + "#/battle")
    app.wait_for_selector("#app-battle [data-testid=setup]")
    app.get_by_role("button", name="Load the Jibril corps example").click()
    app.get_by_role("button", name="Start the battle").click()
    app.wait_for_selector("#app-battle [data-testid=board]")
    assert app.evaluate("ctDom.strays()") == 0
    drawn = app.evaluate("document.querySelectorAll('#app-battle *, #app-conflict *').length")
    assert drawn > 300
