"""Page checks both tablet kits run (tests/e2e/tablet.py on Chromium, tests/webkit/kit.py on
WebKit): each is one JavaScript function, evaluated in the page, so the two engines are
measured by the very same code (issue 34).

``SMALL_CONTROLS``  ``(rootSelector, min) => [problems]``
    Every visible control under the root (buttons, links, fields, selects, summaries,
    role=button, anything focusable by Tab; not inert ones) whose tap target is smaller than ``min`` ×
    ``min`` CSS px. A checkbox or radio is measured by its label (the label is what a finger
    taps), a field hidden behind its label (a file input) by that label; a link inside a
    sentence of running text is exempt (WCAG 2.5.8's inline exception).

``RULE_LANDING``  ``(selector) => {problems, ...}``
    Where a rule link left the page: the element (a clause, or the Rules panel's summary)
    has its heading fully in the viewport below the sticky top bar, uncovered, and has the
    focus.
"""

SMALL_CONTROLS = r"""(rootSel, min) => {
    const root = document.querySelector(rootSel);
    if (!root) return [`${rootSel}: not on the page`];
    const shown = el => {
        const r = el.getBoundingClientRect();
        if (r.width <= 1 || r.height <= 1) return false;
        for (let e = el; e; e = e.parentElement) {
            const s = getComputedStyle(e);
            if (s.display === 'none' || s.visibility === 'hidden' || s.opacity === '0') return false;
            if (e.tagName === 'DETAILS' && !e.open && e !== el && !el.closest('summary')) return false;
        }
        return true;
    };
    const inline = el => {
        // A link in running text: its block has text of its own besides the link.
        if (el.tagName !== 'A') return false;
        const block = el.closest('p, li, dd, td');
        if (!block) return false;
        const own = block.innerText.replace(el.innerText, '').replace(/\s+/g, '');
        return own.length > 12;
    };
    const sel = 'button, a[href], input:not([type=hidden]), select, textarea, summary, '
        + '[role=button], [tabindex="0"]';
    const problems = [];
    const seen = new Set();
    for (const el of root.querySelectorAll(sel)) {
        let target = el;
        const type = (el.getAttribute('type') || '').toLowerCase();
        if (el.tagName === 'INPUT' && ['checkbox', 'radio', 'file'].includes(type)) target = el.closest('label') || el;
        else if (el.tagName === 'INPUT' && el.id && el.getBoundingClientRect().width <= 1)
            target = document.querySelector(`label[for="${CSS.escape(el.id)}"]`) || el;
        // An inert control (an older toast peeking out under the newest) takes no tap.
        if (seen.has(target) || !shown(target) || inline(target) || target.closest('[inert]')) continue;
        seen.add(target);
        const r = target.getBoundingClientRect();
        if (r.width + 0.5 < min || r.height + 0.5 < min) {
            const name = (target.getAttribute('aria-label') || target.getAttribute('data-card')
                || target.innerText || target.getAttribute('data-action') || target.tagName)
                .replace(/\s+/g, ' ').trim().slice(0, 40);
            const what = target.tagName.toLowerCase() + (target.className ? '.' + String(target.className).trim().split(/\s+/).join('.') : '');
            problems.push(`${what} "${name}": ${Math.round(r.width)}×${Math.round(r.height)}`);
        }
    }
    return problems;
}"""

RULE_LANDING = r"""(selector) => {
    const el = document.querySelector(selector);
    if (!el) return {problems: [`${selector}: not on the page`]};
    const head = el.matches('summary') ? el : (el.querySelector('h2, h3, h4') || el);
    const bar = document.querySelector('header.bar').getBoundingClientRect();
    const r = head.getBoundingClientRect();
    const problems = [];
    if (r.top < bar.bottom - 0.5) problems.push(`heading top ${Math.round(r.top)} under the bar (bottom ${Math.round(bar.bottom)})`);
    if (r.bottom > innerHeight + 0.5) problems.push(`heading bottom ${Math.round(r.bottom)} below the ${innerHeight} px viewport`);
    if (!problems.length) {
        const hit = document.elementFromPoint(r.left + Math.min(r.width / 2, 40), r.top + r.height / 2);
        if (hit && !head.contains(hit) && !hit.contains(head)) problems.push(`heading covered by <${hit.tagName.toLowerCase()} class="${hit.className}">`);
    }
    if (document.activeElement !== el) problems.push(`focus on <${document.activeElement.tagName.toLowerCase()} id="${document.activeElement.id}">, not on the clause`);
    return {problems, top: r.top, bar: bar.bottom, scroll: scrollY};
}"""
