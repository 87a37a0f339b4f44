"""A tiny virtual DOM: views describe the page as data, ``patch`` updates the real one.

Views build trees of :class:`VNode` with :func:`h`; :func:`patch` compares the new
tree with the previous one and touches only what changed, so a re-render after
every tap keeps focus, caret and scroll, and a button under the finger stays the
same element. Text is always text: strings become text nodes, attributes are set
with ``setAttribute``, and nothing here ever uses ``innerHTML`` — a name typed as
``<img onerror=…>`` shows as those characters and never runs.

The diff runs in Python; only the changes cross into the browser, as one JSON text per
render that static/dom.js carries out. The module imports ``js`` lazily so the tree
building and the diff can be tested on CPython.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable
from typing import Any

#: Attributes that are live properties of form controls, not just markup.
PROPERTIES = {"value", "checked", "open"}

#: Tags made in the SVG namespace (drawings such as the share QR codes, web/qr.py).
SVG_NS = "http://www.w3.org/2000/svg"
SVG_TAGS = {"svg", "path", "rect", "g"}


class VText:
    __slots__ = ("text", "page_id")
    #: A text node has no tag and no key: it matches only another text node.
    tag = None
    key = None

    def __init__(self, text: str):
        self.text = text
        #: The id of its node on the page (static/dom.js), once drawn.
        self.page_id: int | None = None


class VNode:
    __slots__ = ("tag", "attrs", "children", "page_id")

    def __init__(self, tag: str, attrs: dict[str, str], children: list):
        self.tag = tag
        self.attrs = attrs
        self.children = children
        #: The id of its element on the page (static/dom.js), once drawn.
        self.page_id: int | None = None

    @property
    def key(self) -> str | None:
        """``data-key``: the row this element shows, wherever it moves among its siblings."""
        return self.attrs.get("data-key")

    def text(self) -> str:
        """All the text inside (for tests and accessible names)."""
        return "".join(c.text if isinstance(c, VText) else c.text() for c in self.children)


def _children(items: Iterable[Any]) -> list:
    out: list = []
    for child in items:
        kind = type(child)  # the common cases by exact type first: a screen has thousands
        if kind is VNode or kind is VText:
            out.append(child)
        elif kind is str:
            out.append(VText(child))
        elif child is None or child is False or child is True:
            continue
        elif isinstance(child, (list, tuple)):
            out.extend(_children(child))
        else:
            out.append(VText(str(child)))
    return out


def h(tag: str, attrs: dict[str, Any] | None = None, *children: Any) -> VNode:
    """``<tag attrs…>children</tag>``. Strings become text nodes.

    Attribute values: ``True`` sets an empty attribute, ``None``/``False`` leaves it
    out, anything else goes through ``str``. ``class`` may be a list (falsy items
    dropped). ``value``/``checked``/``open`` are also kept as live properties.
    """
    clean: dict[str, Any] = {}
    for key, value in (attrs or {}).items():
        if value is None or value is False:
            continue
        if key == "class" and isinstance(value, (list, tuple)):
            value = " ".join(v for v in value if v)
        clean[key] = "" if value is True else str(value)
    return VNode(tag, clean, _children(children))


def button(label: Any, action: str, arg: Any = None, *, cls: Any = None, disabled: bool = False,
           **attrs: Any) -> VNode:
    """A button the app's one click listener turns into ``action`` (with ``arg``)."""
    extra = {k.replace("_", "-"): v for k, v in attrs.items()}
    return h("button", {"type": "button", "class": cls, "data-action": action,
                        "data-arg": None if arg is None else str(arg), "disabled": disabled,
                        **extra}, label)


class Memo:
    """One part of a view (a log, a roster …), built again only when its inputs change.

    ``memo(inputs, build, *args)`` returns the tree ``build(*args)`` made the last time
    ``inputs`` were equal to these, else builds it anew: a tap that leaves the part's inputs
    alone costs neither its building nor its diff (the patch skips a subtree it rendered last
    time, issue 33). ``inputs`` must be everything the part shows (compared with ``==``), the
    tree returned must not be changed by the caller, must appear once on the page, and holds
    no form control whose value the tree sets (a reused subtree's live values are not reset).
    """

    __slots__ = ("inputs", "node")

    def __init__(self) -> None:
        self.inputs: Any = None
        self.node: Any = None

    def __call__(self, inputs: Any, build, *args: Any):
        if self.node is None or self.inputs != inputs:
            self.inputs, self.node = inputs, build(*args)
        return self.node


# ---------------------------------------------------------------- browser side
# The diff runs here; what it changes goes to static/dom.js as one JSON text per render
# (issue 33: one call from Python per render, not one per element and attribute; a screen
# swap of a thousand nodes cost a hundred milliseconds of calls on a slow tablet). Every node
# the page shows has an id that both sides know: Python gives it when the node is made, and
# the page keeps id → node until the node leaves the page. The changes, in order:
#: ``[INSERT, parent, node, before]``: put ``node`` (an id, or a new node's :func:`_spec`) in
#: ``parent`` before ``before`` (an id; ``None``: at the end).
INSERT = 0
#: ``[REMOVE, parent, node]``: take ``node`` (and what is inside it) off the page.
REMOVE = 1
#: ``[SET, node, name, value]`` / ``[UNSET, node, name]``: an attribute (``setAttribute``:
#: a value is text, never markup); UNSET also clears the live ``checked``/``open``.
SET = 2
UNSET = 3
#: ``[TEXT, node, text]``: a text node's new text.
TEXT = 4
#: ``[LIVE, node, name, value]``: a live property (:data:`PROPERTIES`) follows the tree, but a
#: focused field keeps what is being typed in it.
LIVE = 5
#: ``[CLEAR, node]``: empty a region (a first render, or after a failed one).
CLEAR = 6

_IDS = itertools.count(1)
_PAGE: list = []  # static/dom.js (window.ctDom), looked up at the first render


def _removals_first(op: list) -> bool:
    """What goes comes off the page before anything else changes (a stable sort keeps the
    rest in order). The result is the same page: nothing removed is used again, and no change
    refers to it. But the browser answers a removed focused element by working out the style
    and layout of the page as it is at that moment: before any change, that page is the one
    it painted last, and costs little; after them, it is worked out once for nothing (issue
    33: in a trace at 4× CPU, "Start the battle" spent 48 ms of style and layout inside the
    patch on the setup editor it was removing, 15 ms with removals first)."""
    return op[0] != REMOVE and op[0] != CLEAR


def _page():
    if not _PAGE:
        from js import window  # type: ignore[import-not-found]

        page = getattr(window, "ctDom", None)
        if page is None:
            raise RuntimeError("static/dom.js did not load: the page cannot be drawn")
        _PAGE.append(page)
    return _PAGE[0]


def _spec(node) -> list:
    """A new node and everything inside it, as static/dom.js makes it: ``[id, text]`` for a
    text node, ``[id, tag, attrs, children]`` for an element (its live properties follow its
    attributes). Gives each node its id."""
    node.page_id = ident = next(_IDS)
    if node.tag is None:
        return [ident, node.text]
    return [ident, node.tag, node.attrs, [_spec(child) for child in node.children]]


def _same(old, new) -> bool:
    """Whether ``new`` updates ``old``'s element: the same tag (text nodes have none) and key."""
    return old.tag == new.tag and old.key == new.key


def _patch_node(old, new, ops: list) -> None:
    if old is new:
        # A part reused from the last render (a :class:`Memo`): its elements already show it.
        return
    new.page_id = nid = old.page_id
    if new.tag is None:
        if old.text != new.text:
            ops.append([TEXT, nid, new.text])
        return
    old_attrs, new_attrs = old.attrs, new.attrs
    if old_attrs != new_attrs:  # (compared at C speed: most elements do not change)
        for key, value in new_attrs.items():
            if old_attrs.get(key) != value:
                ops.append([SET, nid, key, value])
        for key in old_attrs:
            if key not in new_attrs:
                ops.append([UNSET, nid, key])
    for key in PROPERTIES:  # live properties follow the tree even where the markup did not change
        if key in new_attrs:
            ops.append([LIVE, nid, key, new_attrs[key]])
    if old.children or new.children:
        patch_children(nid, old.children, new.children, ops)


def _match(old: list, new: list) -> list:
    """For each new child, the old child it updates (or ``None``: a new element).

    Keyed children (``data-key``) match by key wherever they moved, so removing a
    row never makes the next row's element (and its focused field) take the
    removed row's place; unkeyed children match by their order among the unkeyed.
    """
    if all(node.key is None for node in old) and all(node.key is None for node in new):
        # no keys on either side (most lists): children match by their place
        return [previous if previous.tag == node.tag else None for previous, node in zip(old, new)] + \
            [None] * (len(new) - len(old))
    by_key = {node.key: node for node in old if isinstance(node, VNode) and node.key is not None}
    unkeyed = [node for node in old if not (isinstance(node, VNode) and node.key is not None)]
    matches, u = [], 0
    for node in new:
        key = node.key if isinstance(node, VNode) else None
        if key is not None:
            previous = by_key.pop(key, None)
        else:
            previous = unkeyed[u] if u < len(unkeyed) else None
            u += 1
        matches.append(previous if previous is not None and _same(previous, node) else None)
    return matches


def patch_children(parent: int, old: list, new: list, ops: list) -> None:
    """The changes (``ops``) that make ``parent`` 's children match ``new``, reusing what
    ``old`` rendered."""
    matches = _match(old, new)
    if len(old) == len(new) and all(previous is node for previous, node in zip(matches, old)):
        for node, previous in zip(new, old):  # every element stays where it is (most renders)
            _patch_node(previous, node, ops)
        return
    reused = {id(node) for node in matches if node is not None}
    for previous in old:
        if id(previous) not in reused:
            ops.append([REMOVE, parent, previous.page_id])
    current = [node.page_id for node in old if id(node) in reused]  # the parent's children, in order
    for index, (node, previous) in enumerate(zip(new, matches)):
        if previous is not None:
            _patch_node(previous, node, ops)
            nid = node.page_id
            if index < len(current) and current[index] == nid:
                continue
            current.remove(nid)
            made: Any = nid
        else:
            made = _spec(node)
            nid = node.page_id
        ops.append([INSERT, parent, made, current[index] if index < len(current) else None])
        current.insert(index, nid)


class Serial:
    """Runs one job at a time: a job that arrives while another runs waits for it.

    The browser fires some events synchronously inside a DOM change (a focused
    field that a patch removes fires ``blur``/``change`` there and then). Handling
    such an event at once would render inside a render; every event handler of the
    app runs through one ``Serial``, so it is handled right after, in order.
    """

    def __init__(self) -> None:
        self.busy = False
        self.queue: list = []

    def run(self, job) -> None:
        self.queue.append(job)
        if self.busy:
            return
        self.busy = True
        try:
            while self.queue:
                self.queue.pop(0)()
        finally:
            self.busy = False
            self.queue.clear()


class Root:
    """A mounted region of the page (``#app-conflict`` …) and its last rendered tree."""

    def __init__(self, el):
        self.el = el
        self.page_id = next(_IDS)
        self.tree: list | None = None
        self._patching = False

    def render(self, children: Any) -> None:
        """Patch the region to ``children``; never inside another patch of it."""
        if self._patching:
            raise RuntimeError("Root.render called while the same region is being patched")
        new = _children([children])
        self._patching = True
        try:
            ops: list = []
            if self.tree is None:
                _page().adopt(self.page_id, self.el)
                ops.append([CLEAR, self.page_id])
                self.tree = []
            try:
                patch_children(self.page_id, self.tree, new, ops)
                ops.sort(key=_removals_first)
                if ops:
                    _page().apply(json.dumps(ops, separators=(",", ":")))
            except Exception:
                self.tree = None  # the page is in an unknown state: the next render starts afresh
                raise
            self.tree = new
        finally:
            self._patching = False
