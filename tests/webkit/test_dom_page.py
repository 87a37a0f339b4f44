"""static/dom.js in WebKit, the engine of every iPad browser (issue 33): the same random renders
as tests/e2e/test_dom_page.py, each read by WebKit and checked against the reference reading of
web/dom.py's changes."""

from __future__ import annotations

import json
import random

from tests.e2e.test_dom_page import DUMP_JS, _reference, _tree, _tuples, _unique_keys
from tests.web.test_dom import _dump
from web import dom


def test_webkit_draws_what_the_reference_draws(app, monkeypatch):
    driver = app
    rng = random.Random(34)
    texts: list[str] = []
    root, doc = _reference(texts)
    monkeypatch.setattr(dom, "_page", lambda: doc)
    driver.execute_script("const region = window.__region = document.createElement('section');"
                          "region.hidden = true; document.body.append(region); ctDom.adopt(arguments[0], region)",
                          root.page_id)
    for step in range(40):
        before = len(texts)
        root.render(_unique_keys([_tree(rng) for _ in range(rng.randint(0, 5))]))
        for text in texts[before:]:
            driver.execute_script("ctDom.apply(arguments[0])", text)
        shown = driver.execute_script(f"return ({DUMP_JS})(window.__region)")
        assert [_tuples(d) for d in shown] == [_dump(child) for child in root.el.children], f"after render {step}"
    assert driver.execute_script("return window.__owned") is None
    assert driver.execute_script("return ctDom.strays()") == 0
    driver.execute_script("ctDom.apply(arguments[0])", json.dumps([[dom.CLEAR, root.page_id]]))

