# Two commands do all set-up on a fresh machine:
#   make run    install into .venv and open the notebooks in JupyterLab
#   make test   install into .venv and run every test (unit, CLI, notebooks, browser)
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.nqueens-kit-installed
SYSTEM_PACKAGES ?= minisat cadical picosat cryptominisat chromium
PYTEST_ARGS ?=
# JupyterLab refuses to start as root unless told to (containers, lab machines).
JUPYTER_ROOT := $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)

.PHONY: run test app bench site lite install system-packages clean

run: $(STAMP)
	$(BIN)/jupyter lab --notebook-dir=notebooks $(JUPYTER_ROOT) $(JUPYTER_ARGS)

# Lint, type-check, then every test (two processes; a notebook's cells stay together in one).
test: $(STAMP) system-packages
	$(BIN)/ruff check --no-cache nqueens_kit tests benchmarks
	$(BIN)/mypy --cache-dir=/dev/null nqueens_kit
	$(BIN)/python -m pytest -n auto $(PYTEST_ARGS)

# Voila shuts a kernel down when its page closes; a kernel left idle and unconnected (a browser that died)
# is culled after 10 minutes, so a long lecture day leaves no kernels behind.
VOILA_CULL := --MappingKernelManager.cull_idle_timeout=600 --MappingKernelManager.cull_interval=60 \
	--MappingKernelManager.cull_connected=False
app: $(STAMP)
	$(BIN)/voila notebooks/06-playground.ipynb --no-browser $(VOILA_CULL) $(VOILA_ARGS)

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_core.py
	$(BIN)/python benchmarks/bench_ilp.py

# The course as a book, build/site/index.html: every chapter executed (the stored notebooks keep no figures)
# and rendered by Sphinx with MyST-NB and the Sphinx Book Theme (pinned in the site extra; configuration in
# book/): contents, previous/next, offline search, formulas by a bundled MathJax, each app's first view,
# citations with DOIs.  MathJax and the widget manager come from npm (pinned, hash-checked, fetched once).
# A chapter runs again only when it, its data or the kit changed (build/site-work keeps the executed ones);
# make site CI=1 builds the short version the tests use.
SITE_DIR ?= build/site
site: $(STAMP)
	$(BIN)/python -c 'from nqueens_kit.course.bundle import build_site; print(build_site("$(SITE_DIR)")[-1])'

# The course in a browser with nothing to install, build/lite/: a JupyterLite site whose Pyodide kernel runs
# chapters 1-4, 6 and 7 (python-sat for SAT, HiGHS in WebAssembly for ILP); every version and hash it is
# made of is in nqueens_kit/course/lite.py, downloads are cached in build/lite-cache.  Serve it with
# python -m http.server -d build/lite, or publish the folder as a static site.
LITE_DIR ?= build/lite
lite: $(STAMP)
	$(BIN)/python -m nqueens_kit.course.lite $(LITE_DIR)

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10) and "nqueens-kit needs Python 3.10 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[all,test]"
	touch $@

# External DIMACS solvers and the browser for the app test come from Debian; installed when we may.
system-packages:
	@missing=""; for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  echo "installing Debian packages:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	elif command -v apt-get >/dev/null 2>&1 && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then \
	  sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	else \
	  echo "note: cannot install$$missing here; the tests that need them are skipped"; \
	fi

clean:
	rm -rf $(VENV) .venv-* build dist *.egg-info .pytest_cache
