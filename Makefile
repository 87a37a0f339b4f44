# Conflict Table — see README.md. `make play` and `make test` work on a fresh Debian
# machine with Python 3.11+ and Node.js; they install what they need.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: play site lint test test-engine test-pyodide test-e2e test-webkit bench screenshots clean deps
.PHONY: mutate screenshots-print

# Browsers come from Debian's apt (as root, or through sudo); `apt-get update` runs at
# most once per make run, before the first install. The lock timeout waits for another
# apt that is running instead of failing.
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
APT_GET := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600
apt_update = $(if $(APT_UPDATED),,$(eval APT_UPDATED := yes)$(APT_GET) update -qq)
# `make test` needs all of these: the first one missing installs every one in a single
# apt-get (dpkg's triggers run once, not five times: issue 19, a fresh machine's setup).
# If that fails (a package this release lacks), the rule installs its own package alone.
TEST_APT := chromium chromium-headless-shell zbar-tools poppler-utils webkit2gtk-driver xvfb
apt_install = $(if $(filter test,$(MAKECMDGOALS)),$(APT_GET) install -y -qq $(TEST_APT) || )$(APT_GET) install -y -qq $(1)
# The e2e suite's Chromium: Debian's headless shell of the same Chromium (tests/e2e/conftest.py
# says why); the full browser above stays for `make play`, benchmarks and screenshots. Where
# it cannot be installed, the suite runs in the full browser (slower, the same tests).
HEADLESS_SHELL := /usr/lib/chromium/chromium-headless-shell
HEADLESS_SHELL_MISSING := chromium-headless-shell could not be installed: the e2e suite runs in the full Chromium
$(HEADLESS_SHELL):
	@command -v apt-get >/dev/null || { echo "$(HEADLESS_SHELL_MISSING)"; exit 0; }
	$(apt_update)
	$(call apt_install,chromium-headless-shell) || echo "$(HEADLESS_SHELL_MISSING)"

# The e2e tests run on three workers (pytest-xdist): each has its own browser, servers and
# warm device (tests/e2e/conftest.py). Three on two cores: a test waits part of its time
# (a curtain that settles, a person's pause between taps), and the third worker uses it
# (issue 19: the whole suite 813 s on two workers, 688 s on three with the faster taps;
# four gained nothing more). E2E_WORKERS=0 runs them in one process.
E2E_WORKERS ?= 3
E2E_ARGS := $(if $(filter 0,$(E2E_WORKERS)),,-n $(E2E_WORKERS))

# WebKit, the engine of every iPad browser: WebKitGTK's WebDriver and MiniBrowser
# (webkit2gtk-driver) on a virtual display (xvfb), driven by selenium (tests/webkit).
WEBKIT := /usr/bin/WebKitWebDriver /usr/bin/xvfb-run
XVFB := xvfb-run -a

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

/usr/bin/chromium:
	@command -v apt-get >/dev/null || { echo "Install Chromium at /usr/bin/chromium"; exit 1; }
	$(apt_update)
	$(call apt_install,chromium)

$(WEBKIT) &:
	@command -v apt-get >/dev/null || { echo "Install WebKitGTK's WebDriver (/usr/bin/WebKitWebDriver) and xvfb-run"; exit 1; }
	$(apt_update)
	$(call apt_install,webkit2gtk-driver xvfb)

# zbarimg decodes the share QR codes in the e2e tests (tests/e2e/test_share_qr.py).
/usr/bin/zbarimg:
	@command -v apt-get >/dev/null || { echo "Install zbar-tools (zbarimg at /usr/bin/zbarimg)"; exit 1; }
	$(apt_update)
	$(call apt_install,zbar-tools)

# poppler-utils: pdftotext reads the printed PDFs in the e2e tests (tests/e2e/test_print.py),
# pdftoppm turns them into pictures to look at (tests/screenshots_print.py).
POPPLER := /usr/bin/pdftotext /usr/bin/pdftoppm
$(POPPLER) &:
	@command -v apt-get >/dev/null || { echo "Install poppler-utils (pdftotext and pdftoppm in /usr/bin)"; exit 1; }
	$(apt_update)
	$(call apt_install,poppler-utils)

deps: $(VENV)/.installed node_modules/.installed

site: deps
	$(PY) -m builder.build

play: site
	$(PY) -m builder.serve --port $(PORT)

test-engine: $(VENV)/.installed
	$(PY) -m pytest tests/engine -q

test-pyodide: deps
	node tests/pyodide/run.mjs

test-e2e: site /usr/bin/chromium $(HEADLESS_SHELL) /usr/bin/zbarimg $(POPPLER)
	$(PY) -m pytest tests/e2e -q $(E2E_ARGS)

test-webkit: site $(WEBKIT)
	$(XVFB) $(PY) -m pytest tests/webkit -q

# The CPython suite and the Pyodide suite run side by side (two cores, neither needs a
# browser); when the CPython one is done, the WebKit suite takes its core while the Pyodide
# one (the longer) goes on. Each writes its own log, printed in full once all three are
# done, and any failing fails `make test` (the logs are not under test-results/:
# pytest-playwright empties it). Then the Chromium e2e suite, on every core.
# Lint and import order (ruff, pyproject.toml [tool.ruff]), then the engine's types (mypy,
# [tool.mypy]): a few seconds together, first.
lint: $(VENV)/.installed
	$(PY) -m ruff check engine web builder tests
	$(PY) -m mypy

TEST_LOGS := .test-logs
test: lint site /usr/bin/chromium $(HEADLESS_SHELL) /usr/bin/zbarimg $(POPPLER) $(WEBKIT)
	@mkdir -p $(TEST_LOGS) && rm -f $(TEST_LOGS)/*.rc
	@start=$$(date +%s); \
	( $(PY) -m pytest tests/engine tests/web tests/build -q > $(TEST_LOGS)/cpython.log 2>&1; \
	  echo "$$? $$(( $$(date +%s) - start ))" > $(TEST_LOGS)/cpython.rc; \
	  $(XVFB) $(PY) -m pytest tests/webkit -q > $(TEST_LOGS)/webkit.log 2>&1; \
	  echo "$$? $$(( $$(date +%s) - start ))" > $(TEST_LOGS)/webkit.rc ) & first=$$!; \
	node tests/pyodide/run.mjs > $(TEST_LOGS)/pyodide.log 2>&1; pyodide_rc=$$?; pyodide_s=$$(( $$(date +%s) - start )); \
	wait $$first; read cpython_rc cpython_s < $(TEST_LOGS)/cpython.rc; read webkit_rc webkit_s < $(TEST_LOGS)/webkit.rc; \
	echo "== CPython: tests/engine tests/web tests/build (exit $$cpython_rc, done at $${cpython_s} s) =="; \
	cat $(TEST_LOGS)/cpython.log; \
	echo "== Pyodide: tests/pyodide/run.mjs (exit $$pyodide_rc, done at $${pyodide_s} s; side by side with CPython, then WebKit) =="; \
	cat $(TEST_LOGS)/pyodide.log; \
	echo "== WebKit: tests/webkit (exit $$webkit_rc, done at $${webkit_s} s; after CPython, beside Pyodide) =="; \
	cat $(TEST_LOGS)/webkit.log; \
	test $$cpython_rc -eq 0 && test $$pyodide_rc -eq 0 && test $$webkit_rc -eq 0
	@start=$$(date +%s); $(PY) -m pytest tests/e2e -q $(E2E_ARGS); rc=$$?; \
	echo "== e2e (Chromium): exit $$rc, $$(( $$(date +%s) - start )) s =="; exit $$rc

# BENCH_BASE: other builds of the site (space-separated directories, e.g. an older commit
# built by its own builder with --out) put beside build/ by tests/bench_compare.py.
BENCH_BASE :=
bench: site /usr/bin/chromium $(WEBKIT)
	$(PY) -m pip install --quiet -e '.[bench]'
	$(if $(BENCH_BASE),$(PY) -m tests.bench_compare $(foreach d,$(BENCH_BASE),--base $(d)))
	$(XVFB) $(PY) -m tests.bench
	$(PY) -m tests.bench_poker
	$(PY) -m tests.bench_consim
	$(PY) -m tests.bench_ascension
	$(PY) -m tests.bench_zerosum
	$(PY) -m tests.bench_advisor
	$(PY) -m tests.bench_generals
	$(PY) -m tests.bench_solo
	$(PY) -m tests.bench_appmove
	$(PY) -m tests.bench_phones
	$(PY) -m tests.bench_taps
	$(XVFB) $(PY) -m tests.bench_webkit_taps
	$(PY) -m tests.bench_replay

# Each table's tour (tests/screenshots_*.py) runs through the one driver loop in
# tests/screenshot_kit.py; `make screenshots SHOTS=1024x768-dark` shoots one size and theme.
SHOTS :=
screenshots: site /usr/bin/chromium
	for tour in screenshots screenshots_conflict screenshots_campaign screenshots_consim screenshots_battle; do \
	  $(PY) -m tests.$$tour $(SHOTS) || exit 1; done

# The printed pages (Rules panels, matrices, each table's record) as PDFs at A4 and
# Letter, and each page as a PNG (pdftoppm), in screenshots/print/.
screenshots-print: site /usr/bin/chromium $(POPPLER)
	$(PY) -m tests.screenshots_print

# Mutation testing of engine/ with mutmut (a tool to run, not part of `make test`).
# MUTANTS picks mutants by name glob. The default (session model, codec, rules settings,
# cards: 1,233 mutants) took 18 CPU-minutes, about 9 minutes on two free cores; the
# conflict rules (~2,300 mutants) are a separate, longer run: MUTANTS='engine.conflict.*'.
# SAMPLE=N checks a seeded, uniform sample of N mutants per pattern instead (SAMPLE_SEED, default
# 1; tests/mutation_sample.py), and the score gets its 95 % interval: a system's whole scope
# takes over an hour on two cores, `make mutate MUTANTS='engine.consim.*' SAMPLE=250` minutes.
MUTANTS ?= engine.game.* engine.codec.* engine.rules.* engine.cards.*
SAMPLE ?=
SAMPLE_SEED ?= 1
mutate: $(VENV)/.installed
	$(PY) -m pip install --quiet -e '.[test,mutate]'
	rm -rf mutants && mkdir mutants
ifeq ($(SAMPLE),)
	@echo "mutmut: mutating $(MUTANTS) (progress in mutants/run.log)"
	HYPOTHESIS_PROFILE=mutate $(VENV)/bin/mutmut run $(foreach m,$(MUTANTS),'$(m)') > mutants/run.log 2>&1 \
		|| { tail -c 3000 mutants/run.log; exit 1; }
else
	$(PY) -m tests.mutation_sample --count '$(SAMPLE)' --seed '$(SAMPLE_SEED)' $(foreach m,$(MUTANTS),'$(m)') \
		> mutants/sample.txt
	@echo "mutmut: mutating $$(wc -l < mutants/sample.txt) mutants drawn from $(MUTANTS) (mutants/sample.txt; progress in mutants/run.log)"
	HYPOTHESIS_PROFILE=mutate $(VENV)/bin/mutmut run $$(cat mutants/sample.txt) > mutants/run.log 2>&1 \
		|| { tail -c 3000 mutants/run.log; exit 1; }
endif
	$(VENV)/bin/mutmut results | grep -v ": not checked$$" || true
	$(PY) -m tests.mutation_score

clean:
	rm -rf build .pytest_cache .hypothesis
