// The page shell, before and beside Python: show the section of the current hash
// route, the theme, the offline service worker and its "new version" notice.
// Everything interactive in the tools is Python (web/); this file never touches
// game state.
// Importing the boot module here starts reading this device's start-up snapshot (if
// any) before PyScript asks for the interpreter; it also makes one after the first ready.
// A dynamic import: the shell works even if that module could not load.
const boot = import("./vendor/pyodide/boot.mjs");
boot.catch(() => {}); // no snapshot then; PyScript reports a missing interpreter itself

const root = document.documentElement;

function currentRoute() {
  const hash = location.hash || "#/";
  const match = /^#\/([a-z]*)/.exec(hash);
  return match ? match[1] || "home" : null;
}

function showRoute() {
  const route = currentRoute();
  if (route === null) return;
  let found = false;
  for (const section of document.querySelectorAll("section.route")) {
    const on = section.dataset.route === route;
    section.hidden = !on;
    found ||= on;
  }
  if (!found) document.querySelector('section.route[data-route="home"]').hidden = false;
  const title = document.querySelector("section.route:not([hidden])").dataset.title;
  document.title = title ? `${title} — Conflict Table` : "Conflict Table";
  for (const link of document.querySelectorAll("[data-nav]")) {
    if (link.dataset.nav === route) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  root.dataset.route = found ? route : "home";
}

function flash(clause) {
  for (const old of document.querySelectorAll(".rule.flash")) old.classList.remove("flash");
  clause.classList.add("flash");
}

// ---- Rule links (issue 34) ---------------------------------------------------------
// A rule chip (OIC-8, CMP-3 …), a Rules button or a cross-reference scrolls its clause
// to just below the sticky top bar (its id and title in sight at every size), puts the
// focus on it, and shows "Back to the table", which returns to where the tap was (the
// page's scroll and the focus on the control tapped). A cross-reference followed inside
// the panel keeps the first way back.
let rulesReturn = null;

function barBottom() {
  const bar = document.querySelector("header.bar");
  return bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
}

function scrollBehavior() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
}

function showRule(target, from) {
  const backButton = document.getElementById("rules-back");
  const inPanel = from && from.closest(".rules-panel");
  if (!rulesReturn || !inPanel) rulesReturn = { x: scrollX, y: scrollY, from, route: currentRoute() };
  const landing = () => target.getBoundingClientRect().top + scrollY - barBottom() - 12;
  if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
  target.focus({ preventScroll: true });
  window.scrollTo({ top: Math.max(0, landing()), behavior: scrollBehavior() });
  // A smooth scroll the page drops (WebKit, when the table redraws under it) would leave the
  // clause out of sight: if the page is still and not there by then, land there at once.
  setTimeout(() => {
    const y = scrollY;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      const top = Math.max(0, landing());
      const still = scrollY === y;  // no scroll is moving the page any more
      if (rulesReturn && still && Math.abs(scrollY - top) > 4 && document.activeElement === target) {
        window.scrollTo({ top, behavior: "auto" });
      }
    }));
  }, 900);
  if (backButton) backButton.hidden = false;
  watchPanel(target.closest(".rules-panel"));
}

// Once the rules have been in sight and then scrolled out of it (the player scrolled
// back by hand), the way back is no longer needed: it would only cover the table.
let panelWatch = null;
function watchPanel(panel) {
  if (panelWatch) panelWatch.disconnect();
  panelWatch = null;
  if (!panel || !window.IntersectionObserver) return;
  let seen = false;
  panelWatch = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) seen = true;
      else if (seen) forgetReturn();
    }
  });
  panelWatch.observe(panel);
}

function backToTable() {
  const back = rulesReturn;
  forgetReturn();
  if (!back) return;
  window.scrollTo({ top: back.y, left: back.x, behavior: "auto" });
  if (back.from && back.from.isConnected) back.from.focus({ preventScroll: true });
  else document.getElementById("main").focus({ preventScroll: true });
}

function forgetReturn() {
  rulesReturn = null;
  if (panelWatch) panelWatch.disconnect();
  panelWatch = null;
  const backButton = document.getElementById("rules-back");
  if (backButton) backButton.hidden = true;
}

function applyTheme(theme) {
  if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  else delete root.dataset.theme;
}

function storedTheme() {
  try { return localStorage.getItem("ct:theme"); } catch { return null; }
}

applyTheme(storedTheme());
window.addEventListener("hashchange", showRoute);
window.addEventListener("hashchange", forgetReturn);
document.addEventListener("DOMContentLoaded", () => {
  showRoute();
  setTimeout(() => {
    if (root.dataset.ready !== "true") {
      document.getElementById("boot-text").textContent =
        "The rules engine is taking longer than usual to start. The rules below can be read; " +
        "if the table does not appear, reload the page.";
    }
  }, 30000);
  document.getElementById("theme-toggle").addEventListener("click", () => {
    const dark = root.dataset.theme
      ? root.dataset.theme === "dark"
      : matchMedia("(prefers-color-scheme: dark)").matches;
    const next = dark ? "light" : "dark";
    applyTheme(next);
    try { localStorage.setItem("ct:theme", next); } catch { /* private mode: theme just isn't kept */ }
  });
  document.addEventListener("click", (event) => {
    // Cross-references inside a rules panel scroll to the clause and keep the
    // address on the tool's route (a "#rule-…" hash would lose it on reload).
    const link = event.target.closest('a[href^="#rule-"]');
    if (link) {
      const clause = document.getElementById(link.getAttribute("href").slice(1));
      if (clause) {
        event.preventDefault();
        showRule(clause, link);
        flash(clause);
      }
      return;
    }
    if (event.target.closest("#rules-back")) {
      backToTable();
      return;
    }
    const button = event.target.closest("[data-open-rules]");
    if (!button) return;
    const panel = document.getElementById("rules-" + button.dataset.openRules);
    if (!panel) return;
    panel.open = true;
    // A rule id in a message opens the panel at that clause.
    const clause = button.dataset.rule && document.getElementById("rule-" + button.dataset.rule);
    showRule(clause || panel.querySelector("summary") || panel, button);
    if (clause) flash(clause);
  });
});

// The offline worker precaches every file of the site. Registering it only once
// Python is ready keeps that download from competing with start-up; if Python
// never becomes ready, the worker is registered anyway so the shell works offline.
// Safari has no requestIdleCallback.
const idle = window.requestIdleCallback
  ? (callback) => requestIdleCallback(callback, { timeout: 3000 })
  : (callback) => setTimeout(callback, 300);

function whenReady(callback) {
  let done = false;
  // After ready, wait for an idle moment: the first taps come before the precache.
  const once = () => { if (!done) { done = true; idle(callback); } };
  if (root.dataset.ready === "true") return once();
  document.addEventListener("ct:ready", once, { once: true });
  setTimeout(once, 15000);
}

// A memory snapshot for the next start (docs/ARCHITECTURE.md, Start-up): made in a worker
// once Python is ready and the person is not using the page; anything that goes wrong is
// silent. Only once Python is ready (however long that took): a page that never became
// ready makes none. The worker boots a second Pyodide on its own thread: on a 2-core
// phone that still competes with the page, so it waits until nobody has touched the page
// for QUIET_MS (each tap, key or scroll starts the wait again) or the page is hidden; a
// reload or a tap right after the first visit never meets it.
const QUIET_MS = 4000;
const INPUT = ["pointerdown", "keydown", "wheel", "touchstart", "scroll"];

function whenQuiet(callback) {
  let timer;
  const stop = () => {
    clearTimeout(timer);
    for (const type of INPUT) window.removeEventListener(type, arm, true);
    document.removeEventListener("visibilitychange", hidden);
  };
  const start = () => { stop(); idle(callback); };
  function arm() { clearTimeout(timer); timer = setTimeout(start, QUIET_MS); }
  function hidden() { if (document.hidden) start(); }
  for (const type of INPUT) window.addEventListener(type, arm, { capture: true, passive: true });
  document.addEventListener("visibilitychange", hidden);
  arm();
}

function afterReady(callback) {
  if (root.dataset.ready === "true") whenQuiet(callback);
  else document.addEventListener("ct:ready", () => whenQuiet(callback), { once: true });
}
afterReady(() => boot.then(async (m) => {
  await m.prefetchLater(); // the modules of the later zip, before anyone opens a Share drawer
  await m.makeSnapshotInBackground();
}).catch(() => {}));

if ("serviceWorker" in navigator) {
  whenReady(async () => {
    try {
      const registration = await navigator.serviceWorker.register("./sw.js");
      const hadController = Boolean(navigator.serviceWorker.controller);
      registration.addEventListener("updatefound", () => {
        const worker = registration.installing;
        worker?.addEventListener("statechange", () => {
          if (worker.state === "installed" && hadController) {
            document.getElementById("update-notice").hidden = false;
          }
        });
      });
      document.getElementById("update-reload").addEventListener("click", () => {
        // Let the waiting worker take over, then reload into the new version.
        if (registration.waiting) {
          navigator.serviceWorker.addEventListener("controllerchange", () => location.reload());
          registration.waiting.postMessage("skip-waiting");
        } else {
          location.reload();
        }
      });
      root.dataset.sw = "registered";
    } catch (error) {
      root.dataset.sw = "failed";
    }
  });
}

// ---- Print (issue 22; this block only: the print engineer's) -------------------------
// A Print button of a Rules panel (button[data-print] in index.html.j2) works before
// Python has started: it marks what to print on <html data-print="rules|matrices">
// (static/css/70-print.css prints only that), opens its panel so that every clause
// prints, and calls the browser's print. The record's Print (web/platform.py
// print_page) sets the same mark. The mark is cleared at the next tap, key or route
// change — not at "afterprint", which iPad Safari may fire before it has laid out the
// pages — so the browser's own Print menu prints the page as usual afterwards.
let printOpened = null;
function clearPrint() {
  if (!root.dataset.print) return;
  delete root.dataset.print;
  if (printOpened) printOpened.open = false;
  printOpened = null;
}
document.addEventListener("pointerdown", clearPrint, true);
document.addEventListener("keydown", clearPrint, true);
window.addEventListener("hashchange", clearPrint);
document.addEventListener("click", (event) => {
  const button = event.target.closest?.("button[data-print]");
  if (!button) return;
  clearPrint();
  const panel = document.getElementById("rules-" + button.dataset.printPanel);
  if (panel && !panel.open) {
    panel.open = true;
    printOpened = panel;
  }
  root.dataset.print = button.dataset.print;
  window.print();
});

// Press and hold (issue 34 item 7): a button with data-hold-action is no tap. Held for
// HOLD_MS — a finger, the mouse, or Enter/Space kept down — it fills (--hold, 0 to 1,
// class "holding") and then sends "ct:hold", which the app (web/app.py on_hold) takes
// as that button's action; lifting, sliding off or releasing the key before cancels.
// The one gesture the players' view asks before the Observer's view returns.
const HOLD_MS = 1000;
let held = null;
function holdStop() {
  if (!held) return;
  cancelAnimationFrame(held.frame);
  held.el.classList.remove("holding");
  held.el.style.removeProperty("--hold");
  held = null;
}
function holdStart(el) {
  if (held || el.disabled) return;
  const started = performance.now();
  const tick = () => {
    if (!held || held.el !== el) return;
    const part = Math.min(1, (performance.now() - started) / HOLD_MS);
    el.style.setProperty("--hold", part.toFixed(3));
    if (part < 1) {
      held.frame = requestAnimationFrame(tick);
      return;
    }
    holdStop();
    el.dispatchEvent(new CustomEvent("ct:hold", { bubbles: true }));
  };
  el.classList.add("holding");
  held = { el, frame: requestAnimationFrame(tick) };
}
document.addEventListener("pointerdown", (event) => {
  const el = event.target.closest?.("[data-hold-action]");
  if (el && event.button === 0) holdStart(el);
});
for (const type of ["pointerup", "pointercancel"]) document.addEventListener(type, holdStop);
document.addEventListener("pointerout", (event) => {
  if (held && !held.el.contains(event.relatedTarget)) holdStop();
});
document.addEventListener("keydown", (event) => {
  const el = event.target.closest?.("[data-hold-action]");
  if (!el || (event.key !== "Enter" && event.key !== " ")) return;
  event.preventDefault(); // no click: only the held key counts
  if (!event.repeat) holdStart(el);
});
document.addEventListener("keyup", (event) => {
  if (held && (event.key === "Enter" || event.key === " ")) holdStop();
});
document.addEventListener("contextmenu", (event) => {
  if (event.target.closest?.("[data-hold-action]")) event.preventDefault(); // a long press is no menu
});
window.addEventListener("blur", holdStop);
