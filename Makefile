# Two commands do all set-up on a fresh machine:
#   make run    install into .venv what the chapters use and open your working copy of them (my-course/)
#   make test   install into .venv the test, site and browser-edition tooling too, and run every test
# Each target installs only what it needs (a pyproject.toml extra); a later target adds to the same .venv.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
COURSE := $(VENV)/.installed-course
APP := $(VENV)/.installed-app
TEST := $(VENV)/.installed-test
SITE := $(VENV)/.installed-site
LITE := $(VENV)/.installed-lite
SYSTEM_PACKAGES ?= minisat cadical picosat cryptominisat minizinc chromium procps
PYTEST_ARGS ?=
# JupyterLab refuses to start as root unless told to (containers, lab machines).
JUPYTER_ROOT := $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)
# JupyterLab without its news prompt and update check: nothing pops up over a projected notebook.
LAB_QUIET := --LabApp.news_url=None --LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate
LAB ?= $(BIN)/jupyter lab
# The reader's working copy of the chapters, made once by nqueens-kit notebooks (never the tracked notebooks/:
# a Run All, an exercise typed in, a saved output stay there, and git status stays clean).
COURSE_DIR ?= my-course

.PHONY: run fresh-course test test-deep test-course test-lowest app bench site lite slides install system-packages clean

run: $(COURSE)
	@if [ ! -d "$(COURSE_DIR)" ]; then \
	  $(BIN)/nqueens-kit notebooks "$(COURSE_DIR)" && touch "$(COURSE_DIR)/.copied"; \
	elif [ -f "$(COURSE_DIR)/.copied" ] && [ -n "$$(find notebooks -newer "$(COURSE_DIR)/.copied" -name '*.ipynb')" ]; then \
	  echo "note: the chapters in notebooks/ changed since $(COURSE_DIR)/ was copied; make fresh-course takes the" \
	       "new ones (your copy is kept beside it)"; \
	fi
	$(LAB) --notebook-dir="$(COURSE_DIR)" $(LAB_QUIET) $(JUPYTER_ROOT) $(JUPYTER_ARGS)

# Fresh chapters: the working copy is moved aside (my-course.YYYYMMDD-HHMMSS), never deleted, and a new one made.
fresh-course: $(COURSE)
	@if [ -d "$(COURSE_DIR)" ]; then kept="$(COURSE_DIR).$$(date +%Y%m%d-%H%M%S)"; mv "$(COURSE_DIR)" "$$kept" && \
	  echo "your copy is now $$kept"; fi
	$(BIN)/nqueens-kit notebooks "$(COURSE_DIR)" && touch "$(COURSE_DIR)/.copied"

# Lint, type-check, then every test (two processes; a notebook's cells stay together in one).
test: $(TEST) system-packages
	$(BIN)/ruff check --no-cache nqueens_kit tests benchmarks
	$(BIN)/mypy --cache-dir=/dev/null nqueens_kit
	$(BIN)/python -m pytest -n auto $(PYTEST_ARGS)

# The deepest fuzz and counting cases, the whole site and browser edition read in Chromium (pytest -m deep),
# left out of make test for its time; CI runs both.
test-deep: $(TEST) system-packages
	$(BIN)/python -m pytest -n auto -m deep $(PYTEST_ARGS)

# The course as it is used, not only as it is tested (CI runs it): every chapter top to bottom at its full sizes,
# in normal mode (no CI, no pytest), on a fresh kernel, in a working copy made by nqueens-kit notebooks, first
# in a venv holding only what make run installs and then in one holding only what pip install
# "nqueens-kit[course]" installs from the kit's wheel, each on a PATH without the Debian solver programs
# (benchmarks/time_chapters.py --check --copy --bare-path): a missing program or a slower machine must not stop
# a chapter.  make test-lowest runs the same check at the lowest allowed versions.
COURSE_VENV ?= .venv-course
PIP_VENV ?= .venv-pip
test-course:
	$(MAKE) --no-print-directory VENV=$(COURSE_VENV) $(COURSE_VENV)/.installed-course
	$(COURSE_VENV)/bin/python benchmarks/time_chapters.py --check --copy --bare-path
	rm -rf $(PIP_VENV) build/pip-wheel
	$(PYTHON) -m venv $(PIP_VENV)
	$(PIP_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(PIP_VENV)/bin/python -m pip wheel --quiet --no-deps --wheel-dir build/pip-wheel .
	$(PIP_VENV)/bin/python -m pip install --quiet "$$(ls build/pip-wheel/nqueens_kit-*.whl)[course]"
	cd build && ../$(PIP_VENV)/bin/python ../benchmarks/time_chapters.py --check --copy --bare-path

# The suite again at the lowest version of every dependency pyproject.toml allows (uv compiles a lowest-direct
# resolution of the course's extras; the test tools are the newest those pins admit), on the oldest Python the
# kit supports: every allowed version is a tested version.  Browser tests run in `make test` only.  uv trusts
# the platform's certificate store, as pip does.
LOWEST_PYTHON ?= python3.10
LOWEST_VENV ?= .venv-lowest
test-lowest: $(LOWEST_VENV)/.installed-lowest system-packages
	$(LOWEST_VENV)/bin/python -m pytest -n auto -m "not browser and not deep" $(PYTEST_ARGS)
	$(LOWEST_VENV)/bin/python benchmarks/time_chapters.py --check --copy

$(LOWEST_VENV)/.installed-lowest: pyproject.toml
	$(LOWEST_PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10) and "nqueens-kit needs Python 3.10 or newer")'
	$(LOWEST_PYTHON) -m venv $(LOWEST_VENV)
	$(LOWEST_VENV)/bin/python -m pip install --quiet --upgrade pip "uv>=0.13"
	UV_SYSTEM_CERTS=1 $(LOWEST_VENV)/bin/uv pip compile --quiet pyproject.toml --extra course --extra cluster --resolution lowest-direct \
	  --python $(LOWEST_VENV)/bin/python --no-header -o $(LOWEST_VENV)/lowest.txt
	$(LOWEST_VENV)/bin/python -m pip install --quiet -r $(LOWEST_VENV)/lowest.txt
	PYTHONWARNINGS="ignore:Editable install" $(LOWEST_VENV)/bin/python -m pip install --quiet \
	  -c $(LOWEST_VENV)/lowest.txt -e ".[test-core]"
	touch $@

# Voila shuts a kernel down when its page closes; a kernel left idle and unconnected (a browser that died)
# is culled after 10 minutes, so a long lecture day leaves no kernels behind.
VOILA_CULL := --MappingKernelManager.cull_idle_timeout=600 --MappingKernelManager.cull_interval=60 \
	--MappingKernelManager.cull_connected=False
app: $(APP)
	$(BIN)/voila notebooks/06-playground.ipynb --no-browser $(VOILA_CULL) $(VOILA_ARGS)

bench: $(COURSE)
	$(BIN)/python benchmarks/bench_core.py
	$(BIN)/python benchmarks/bench_ilp.py

# The course as a book, build/site/index.html: every chapter executed (the stored notebooks keep no figures)
# and rendered by Sphinx with MyST-NB and the Sphinx Book Theme (pinned in the site extra; configuration in
# book/): contents, previous/next, offline search, formulas by a bundled MathJax, each app's first view,
# citations with DOIs.  MathJax and the widget manager come from npm (pinned, hash-checked, fetched once).
# A chapter runs again only when it, its data or the kit changed (build/site-work keeps the executed ones);
# make site CI=1 builds the short version the tests use.
SITE_DIR ?= build/site
site: $(SITE)
	$(BIN)/python book/build_site.py $(SITE_DIR)

# The course in a browser with nothing to install, build/lite/: a JupyterLite site whose Pyodide kernel runs
# chapters 1-4, 6 and 7 (python-sat for SAT, HiGHS in WebAssembly for ILP); every version and hash it is
# made of is in book/build_lite.py, downloads are cached in build/lite-cache.  Serve it with
# python -m http.server -d build/lite, or publish the folder as a static site.
LITE_DIR ?= build/lite
lite: $(LITE)
	$(BIN)/python book/build_lite.py $(LITE_DIR)

# The chapters as reveal.js decks for the lecture hall, build/slides/NN-name.slides.html: each chapter executed
# as make site executes it (one that did not change is not run again; build/slides-work keeps them) and made a
# deck by jupyter nbconvert --to slides, its cells' slide types (slideshow metadata) saying what is a slide,
# what the speaker's notes and what is left out.  reveal.js, MathJax and the widget manager come from npm
# (pinned, hash-checked) into build/slides/_static: a deck needs no network.  Serve them with
# python -m http.server -d build/slides.  make slides CI=1 runs the chapters at their small sizes.
SLIDES_DIR ?= build/slides
slides: $(COURSE)
	$(BIN)/python book/build_slides.py $(SLIDES_DIR)

install: $(COURSE)

$(BIN)/python:
	$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10) and "nqueens-kit needs Python 3.10 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# One stamp per set of extras: editing pyproject.toml installs again what the next target needs.  The kit's
# modules are compiled once, as a wheel install does, so a command answers sooner (PYTHONDONTWRITEBYTECODE or
# not).  setuptools warns at every editable install of a package that maps a folder into itself (the
# notebooks ship as nqueens_kit._notebooks); that one warning is expected, and left off a newcomer's screen.
PIP_INSTALL := PYTHONWARNINGS="ignore:Editable install" $(BIN)/python -m pip install --quiet
# The extras each stamp installs ($(VENV)/.installed-NAME).
EXTRAS_course := course
EXTRAS_app := course,app
EXTRAS_test := all,test
EXTRAS_site := course,site
EXTRAS_lite := lite
$(VENV)/.installed-%: pyproject.toml | $(BIN)/python
	$(PIP_INSTALL) -e ".[$(EXTRAS_$*)]"
	$(BIN)/python -m compileall -q nqueens_kit
	touch $@

# External DIMACS solvers, the browser for the app test, ps for the process tests and npm for the site's
# pinned scripts come from Debian (npm only where no npm is on PATH); installed when we may.
system-packages:
	@missing=""; for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	command -v npm >/dev/null 2>&1 || missing="$$missing npm"; \
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
