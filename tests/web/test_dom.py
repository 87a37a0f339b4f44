"""The virtual DOM of the browser UI, against a tiny fake document (no browser needed)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from web import dom
from web.dom import Root, Serial, button, h
from web.routing import parse_hash


class FakeNode:
    def __init__(self, tag=None, text=None):
        self.tag, self.data = tag, text
        self.attrs: dict[str, str] = {}
        self.children: list[FakeNode] = []
        self.value = ""
        self.checked = False
        self.open = False
        self.ops = 0
        self.moves = 0

    # element API used by web.dom
    def setAttribute(self, k, v):
        self.attrs[k] = v

    def removeAttribute(self, k):
        self.attrs.pop(k, None)

    def appendChild(self, c):
        self.children.append(c)
        return c

    def replaceChild(self, new, old):
        self.children[self.children.index(old)] = new

    def insertBefore(self, new, ref):
        if new in self.children:
            self.children.remove(new)
        self.moves += 1
        if ref is None:
            self.children.append(new)
        else:
            self.children.insert(self.children.index(ref), new)

    def removeChild(self, c):
        self.children.remove(c)

    @property
    def textContent(self):
        return self.data if self.tag is None else "".join(c.textContent for c in self.children)

    @textContent.setter
    def textContent(self, value):
        self.children = [] if not value else [FakeNode(text=value)]


class FakeDocument:
    """The page: its focused element, what static/dom.js made, and that file's changes
    (web/dom.py's ops) carried out on :class:`FakeNode` s as the file does."""

    activeElement = None

    def __init__(self):
        self.created = 0
        self.nodes: dict[int, FakeNode] = {}
        self.calls = 0  # how many times Python called into the page

    def createElement(self, tag):
        self.created += 1
        return FakeNode(tag)

    def createElementNS(self, namespace, tag):
        self.created += 1
        node = FakeNode(tag)
        node.namespace = namespace
        return node

    def createTextNode(self, text):
        self.created += 1
        return FakeNode(text=text)

    # static/dom.js
    def adopt(self, ident, el):
        self.calls += 1
        self.nodes[ident] = el

    def _create(self, spec):
        if len(spec) == 2:
            self.nodes[spec[0]] = made = self.createTextNode(spec[1])
            return made
        ident, tag, attrs, children = spec
        el = self.createElementNS(dom.SVG_NS, tag) if tag in dom.SVG_TAGS else self.createElement(tag)
        for key, value in attrs.items():
            el.setAttribute(key, value)
        for child in children:
            el.appendChild(self._create(child))
        for key in dom.PROPERTIES:
            if key in attrs:
                _live(el, key, attrs[key])
        self.nodes[ident] = el
        return el

    def _forget(self, root, keep=False):
        inside = {id(n) for n in _walk(root) if not (keep and n is root)}
        self.nodes = {k: n for k, n in self.nodes.items() if id(n) not in inside}

    def apply(self, text):
        self.calls += 1
        for op in json.loads(text):
            kind, target = op[0], self.nodes[op[1]]
            if kind == dom.INSERT:
                child = self.nodes[op[2]] if isinstance(op[2], int) else self._create(op[2])
                target.insertBefore(child, None if op[3] is None else self.nodes[op[3]])
            elif kind == dom.REMOVE:
                child = self.nodes[op[2]]
                self._forget(child)
                target.removeChild(child)
            elif kind == dom.SET:
                target.setAttribute(op[2], op[3])
            elif kind == dom.UNSET:
                target.removeAttribute(op[2])
                if op[2] in ("checked", "open"):
                    _live(target, op[2], None)
            elif kind == dom.TEXT:
                target.data = op[2]
            elif kind == dom.LIVE:
                if op[2] != "value" or self.activeElement is not target:
                    _live(target, op[2], op[3])
            else:
                assert kind == dom.CLEAR
                self._forget(target, keep=True)
                target.textContent = ""


def _live(el, key, value):
    if key == "value":
        el.value = value or ""
    else:
        setattr(el, key, value is not None)


def _walk(node):
    yield node
    for child in node.children:
        yield from _walk(child)


@pytest.fixture
def doc(monkeypatch):
    fake = FakeDocument()
    monkeypatch.setattr(dom, "_page", lambda: fake)
    return fake


def test_markup_in_strings_stays_text(doc):
    root = Root(FakeNode("div"))
    root.render(h("p", {}, "<img src=x onerror=alert(1)>"))
    (p,) = root.el.children
    assert p.tag == "p" and p.children[0].tag is None
    assert p.children[0].data == "<img src=x onerror=alert(1)>"


def test_attributes_booleans_and_class_lists():
    node = h("button", {"disabled": True, "hidden": False, "title": None, "class": ["a", "", None, "b"]})
    assert node.attrs == {"disabled": "", "class": "a b"}
    b = button("Go", "x:go", 3, cls="btn", aria_label="Go now")
    assert b.attrs["data-action"] == "x:go" and b.attrs["data-arg"] == "3" and b.attrs["aria-label"] == "Go now"


def test_patch_reuses_elements_and_changes_only_what_changed(doc):
    root = Root(FakeNode("div"))
    root.render([h("ul", {}, [h("li", {"data-key": str(i)}, f"item {i}") for i in range(3)]), h("p", {}, "a")])
    ul, p = root.el.children
    first_li = ul.children[0]
    created = doc.created
    root.render([h("ul", {}, [h("li", {"data-key": str(i)}, f"item {i}") for i in range(2)]), h("p", {"class": "x"}, "b")])
    assert root.el.children[0] is ul and root.el.children[1] is p  # same elements
    assert ul.children[0] is first_li and len(ul.children) == 2  # one removed
    assert p.attrs == {"class": "x"} and p.children[0].data == "b"
    assert doc.created == created  # nothing new was created
    root.render([h("ul", {}, []), h("div", {}, "c")])  # a different tag replaces the node
    assert root.el.children[1] is not p and root.el.children[1].tag == "div"


def test_a_focused_input_keeps_what_is_being_typed(doc):
    root = Root(FakeNode("div"))
    root.render(h("input", {"value": "Ann"}))
    (field,) = root.el.children
    assert field.value == "Ann"
    field.value = "Anna (typing)"
    doc.activeElement = field
    root.render(h("input", {"value": "Ann"}))
    assert field.value == "Anna (typing)"
    doc.activeElement = None
    root.render(h("input", {"value": "Bob"}))
    assert field.value == "Bob"


def test_keyed_rows_keep_their_elements_when_a_row_above_goes(doc):
    """Issue 7, defect 2: removing row b must not hand b's element (and its focused
    field) to row c."""
    root = Root(FakeNode("div"))

    def rows(names):
        return [h("div", {"data-key": name}, h("input", {"value": name})) for name in names]

    root.render(rows(["a", "b", "c"]))
    a, b, c = root.el.children
    root.render(rows(["a", "c"]))
    assert root.el.children == [a, c]
    assert c.children[0].value == "c"
    root.render(rows(["c", "a", "d"]))  # moved and added: still the same elements
    assert root.el.children[:2] == [c, a] and root.el.children[2].children[0].value == "d"
    root.render([h("p", {}, "x"), *rows(["a"])])  # unkeyed and keyed side by side
    assert root.el.children[1] is a and root.el.children[0].tag == "p"


def test_a_render_inside_a_patch_is_refused_not_half_applied(doc):
    """Issue 7, defect 1: the browser may fire an event (and so a render) inside a patch."""
    root = Root(FakeNode("div"))
    root.render(h("div", {"data-key": "x"}, "one"))
    nested = []

    class Firing(FakeNode):
        def removeChild(self, c):
            try:
                root.render(h("p", {}, "nested"))
            except RuntimeError as err:
                nested.append(str(err))
            super().removeChild(c)

    el = Firing("div")
    root.el, root.tree = el, None  # the region is drawn afresh into another element
    root.render(h("div", {"data-key": "x"}, "one"))
    root.render(h("p", {}, "two"))
    assert nested and [child.tag for child in el.children] == ["p"]


def test_serial_runs_a_job_that_arrives_during_another_after_it():
    serial, log = Serial(), []

    def outer():
        log.append("outer start")
        serial.run(lambda: log.append("inner"))  # e.g. a change event fired inside a render
        log.append("outer end")

    serial.run(outer)
    assert log == ["outer start", "outer end", "inner"]
    assert not serial.busy


@pytest.mark.parametrize("hash_, expected", [
    ("", ("home", {})),
    ("#/", ("home", {})),
    ("#/conflict", ("conflict", {})),
    ("#/conflict?g=2abc-_", ("conflict", {"g": "2abc-_"})),
    ("#/battle?slot=battle-x1&g=", ("battle", {"slot": "battle-x1", "g": ""})),
    ("#/nowhere", ("home", {})),
    ("#main", ("home", {})),
])
def test_parse_hash(hash_, expected):
    assert parse_hash(hash_) == expected


def test_svg_drawings_are_made_in_the_svg_namespace(doc):
    root = Root(FakeNode("div"))
    root.render(h("figure", {}, h("svg", {"viewBox": "0 0 4 4"}, h("rect", {"width": 4}), h("path", {"d": "M0 0h1"}))))
    (figure,) = root.el.children
    (svg,) = figure.children
    assert not hasattr(figure, "namespace")
    assert svg.namespace == dom.SVG_NS and svg.attrs == {"viewBox": "0 0 4 4"}
    assert [(c.tag, c.namespace) for c in svg.children] == [("rect", dom.SVG_NS), ("path", dom.SVG_NS)]


# ---------------------------------------------------------------- any patch is a fresh render
_TAGS = st.sampled_from(["div", "p", "button", "input", "details"])
_ATTRS = st.dictionaries(st.sampled_from(["class", "title", "value", "checked", "open", "data-key", "hidden"]),
                         st.sampled_from(["a", "b", "", "1"]), max_size=3)


def _tree(depth: int = 3):
    leaf = st.sampled_from(["x", "y", "", "<b>z</b>"])
    if depth == 0:
        return leaf
    node = st.builds(lambda tag, attrs, kids: (tag, attrs, kids), _TAGS, _ATTRS,
                     st.lists(st.deferred(lambda: _tree(depth - 1)), max_size=4))
    return st.one_of(leaf, node)


def _build(spec):
    if isinstance(spec, str):
        return spec
    tag, attrs, kids = spec
    return h(tag, attrs, [_build(k) for k in kids])


def _unique_keys(specs):
    """Keys unique among siblings, as views make them (data-key names a row)."""
    out, seen = [], set()
    for spec in specs:
        if not isinstance(spec, str):
            tag, attrs, kids = spec
            if attrs.get("data-key") in seen:
                attrs = {k: v for k, v in attrs.items() if k != "data-key"}
            seen.add(attrs.get("data-key"))
            spec = (tag, attrs, _unique_keys(kids))
        out.append(spec)
    return out


def _dump(node):
    if node.tag is None:
        return node.data
    # a field the tree gives no value keeps what is in it (what a person typed stays)
    props = {k: getattr(node, k) for k in ("value", "checked", "open") if k != "value" or k in node.attrs}
    return (node.tag, dict(node.attrs), props, [_dump(c) for c in node.children])


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(_tree(), max_size=5).map(_unique_keys), st.lists(_tree(), max_size=5).map(_unique_keys))
def test_any_tree_patched_to_any_other_is_what_a_fresh_render_makes(before, after):
    """Issue 19 (the patch's fast paths): from whatever was on screen, a patch leaves
    exactly the elements, attributes, live properties and text that rendering the new
    tree from nothing makes; a render that changes nothing creates nothing."""
    doc = FakeDocument()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dom, "_page", lambda: doc)
        patched = Root(FakeNode("div"))
        patched.render([_build(s) for s in before])
        patched.render([_build(s) for s in after])
        fresh = Root(FakeNode("div"))
        fresh.render([_build(s) for s in after])
        assert [_dump(c) for c in patched.el.children] == [_dump(c) for c in fresh.el.children]
        created, elements = doc.created, list(patched.el.children)
        patched.render([_build(s) for s in after])
        assert doc.created == created and patched.el.children == elements


# ---------------------------------------------------------------- a reused part costs nothing (issue 33)
def _counting(monkeypatch) -> list:
    calls: list = []
    patch_node = dom._patch_node

    def counted(old, new, ops):
        calls.append(new)
        patch_node(old, new, ops)

    monkeypatch.setattr(dom, "_patch_node", counted)
    return calls


def test_a_reused_subtree_is_not_walked_again(doc, monkeypatch):
    """Issue 33 (draw only what changed): a part the view hands back unchanged (the same
    tree as last render, from a Memo) is skipped by the patch: one look, no walk inside,
    nothing created, its elements kept; the rest of the page is patched as before."""
    log = h("ol", {}, [h("li", {"data-key": f"w{i}"}, h("strong", {}, f"Week {i}"), " a line") for i in range(50)])
    root = Root(FakeNode("div"))
    root.render([h("p", {}, "status 1"), log])
    status, ol = root.el.children
    rows = list(ol.children)
    calls, created = _counting(monkeypatch), doc.created
    root.render([h("p", {}, "status 2"), log])
    assert status.children[0].data == "status 2"
    assert root.el.children[1] is ol and ol.children == rows and doc.created == created
    assert calls.count(log) == 1 and not any(node in calls for node in log.children)
    assert len(calls) == 3  # the <p>, its text, the log: not the log's 150 nodes
    # The same rows built afresh (equal, not the same): walked, and still nothing created.
    calls.clear()
    again = h("ol", {}, [h("li", {"data-key": f"w{i}"}, h("strong", {}, f"Week {i}"), " a line") for i in range(50)])
    root.render([h("p", {}, "status 2"), again])
    assert len(calls) > 150 and ol.children == rows and doc.created == created


def test_memo_builds_again_only_when_its_inputs_change(doc):
    built: list = []

    def part(weeks):
        built.append(weeks)
        return h("ol", {}, [h("li", {"data-key": str(w)}, f"Week {w}") for w in weeks])

    memo, root = dom.Memo(), Root(FakeNode("div"))
    for weeks in [(1,), (1,), (1, 2), (1, 2), (1,)]:
        root.render([h("p", {}, str(len(weeks))), memo(weeks, part, weeks)])
        (ol,) = root.el.children[1:]
        assert [li.children[0].data for li in ol.children] == [f"Week {w}" for w in weeks]
    assert built == [(1,), (1, 2), (1,)]
    # A reused part that moves (something new above it) still ends where a fresh render puts it.
    root.render([h("h2", {}, "new"), h("p", {}, "1"), memo((1,), part, (1,))])
    fresh = Root(FakeNode("div"))
    fresh.render([h("h2", {}, "new"), h("p", {}, "1"), part((1,))])
    assert [_dump(c) for c in root.el.children] == [_dump(c) for c in fresh.el.children]
