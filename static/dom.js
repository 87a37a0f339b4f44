// The page's hands for web/dom.py (issue 33). Python's virtual DOM works out what a render
// changes; the changes arrive here as one JSON text per render and are carried out in order,
// so a render costs one call from Python, not one per element and attribute. This file keeps
// no game state and decides nothing. Text is always text: strings become text nodes,
// attribute values or a text node's data, and nothing here ever uses innerHTML.
//
// Every node drawn has an id that both sides know: Python gives it (web/dom.py _spec), this
// file keeps id → node until the node leaves the page. The changes (web/dom.py names them):
//   [INSERT, parent, node, before]  node: an id, or a new node [id, text] / [id, tag, attrs, children]
//   [REMOVE, parent, node]          [SET, node, name, value]   [UNSET, node, name]
//   [TEXT, node, text]              [LIVE, node, name, value]  [CLEAR, node]

const INSERT = 0, REMOVE = 1, SET = 2, UNSET = 3, TEXT = 4, LIVE = 5, CLEAR = 6;
const SVG_NS = "http://www.w3.org/2000/svg";
const SVG_TAGS = new Set(["svg", "path", "rect", "g"]);
/** Attributes that are live properties of form controls (web/dom.py PROPERTIES). */
const PROPERTIES = ["value", "checked", "open"];

const nodes = new Map(); // id → node
const ids = new WeakMap(); // node → id

function named(id, node) {
  nodes.set(id, node);
  ids.set(node, id);
  return node;
}

function node(id) {
  const found = nodes.get(id);
  if (found === undefined) throw new Error(`static/dom.js: no node ${id} on the page`);
  return found;
}

/** Forget the ids of what is inside ``root`` (and of ``root`` itself, unless ``keep``). */
function forget(root, keep = false) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let at = keep ? walker.nextNode() : root; at; at = walker.nextNode()) {
    const id = ids.get(at);
    if (id !== undefined) nodes.delete(id);
  }
}

/** A live property follows the tree (``value`` null: its attribute went). */
function setLive(el, name, value) {
  if (name === "value") {
    const text = value ?? "";
    if (el.value !== text) el.value = text;
  } else {
    el[name] = value !== null;
  }
}

function create(spec) {
  if (spec.length === 2) return named(spec[0], document.createTextNode(spec[1]));
  const [id, tag, attrs, children] = spec;
  const el = SVG_TAGS.has(tag) ? document.createElementNS(SVG_NS, tag) : document.createElement(tag);
  for (const name of Object.keys(attrs)) el.setAttribute(name, attrs[name]);
  for (const child of children) el.appendChild(create(child));
  // after the children: a <select>'s value needs its options
  for (const name of PROPERTIES) if (Object.hasOwn(attrs, name)) setLive(el, name, attrs[name]);
  return named(id, el);
}

function apply(text) {
  for (const op of JSON.parse(text)) {
    switch (op[0]) {
      case INSERT: {
        const child = typeof op[2] === "number" ? node(op[2]) : create(op[2]);
        node(op[1]).insertBefore(child, op[3] === null ? null : node(op[3]));
        break;
      }
      case REMOVE: {
        const child = node(op[2]);
        forget(child);
        node(op[1]).removeChild(child);
        break;
      }
      case SET:
        node(op[1]).setAttribute(op[2], op[3]);
        break;
      case UNSET: {
        const el = node(op[1]);
        el.removeAttribute(op[2]);
        if (op[2] === "checked" || op[2] === "open") setLive(el, op[2], null);
        break;
      }
      case TEXT:
        node(op[1]).data = op[2];
        break;
      case LIVE: {
        const el = node(op[1]);
        // a focused field keeps what is being typed in it
        if (op[2] !== "value" || document.activeElement !== el) setLive(el, op[2], op[3]);
        break;
      }
      case CLEAR: {
        const el = node(op[1]);
        forget(el, true);
        el.textContent = "";
        break;
      }
      default:
        throw new Error(`static/dom.js: no change ${op[0]}`);
    }
  }
}

/** A region of the page Python draws into (web/dom.py Root), under ``id``. */
function adopt(id, el) {
  named(id, el);
}

/** How many nodes it knows that are no longer on the page: 0, always (the tests check it). */
function strays() {
  let count = 0;
  for (const known of nodes.values()) if (!known.isConnected) count += 1;
  return count;
}

window.ctDom = { adopt, apply, strays };
