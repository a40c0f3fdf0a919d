# anonreview — the two commands a new user needs: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(VENV)/bin/pip
HOST   ?= 127.0.0.1
PORT   ?= 8000
WORKERS ?= 1
WEB_WORKERS ?= 2
# The local secret key: generated once (mode 600), kept out of git (var/ is ignored).
SECRET_KEY_FILE ?= var/secret_key
# make run serves on localhost: DEBUG off, plain HTTP (behind an HTTPS proxy: HTTPS=1).
RUN_ENV := DEBUG=0 HTTPS=$${HTTPS:-0} SECRET_KEY_FILE=$(SECRET_KEY_FILE)
# Request lines without query strings (names reach them: the review page's ?q=).
ACCESS_LOG := '%(t)s %(h)s "%(m)s %(U)s" %(s)s %(b)s'
# Quiet installs: pip's warnings about the machine (root user, version check, scripts
# off PATH) go to var/pip.log, shown only when an install fails.
export PIP_ROOT_USER_ACTION := ignore
export PIP_DISABLE_PIP_VERSION_CHECK := 1
export PIP_NO_WARN_SCRIPT_LOCATION := 1
PIP_LOG := var/pip.log
QUIET_PIP = mkdir -p var && $(PIP) install -q $(1) 2>$(PIP_LOG) || { cat $(PIP_LOG); exit 1; }
# Demo passwords are kept here (mode 600) and printed last by `make run`, in a box.
DEMO_PASSWORDS := var/demo_passwords

.PHONY: install install-dev chromium tesseract secret migrate demo static run worker serve test lint format bench bench-corpus clean

$(VENV)/bin/python:
	@echo "Creating $(VENV) and installing the requirements (a few minutes, once)..."
	@$(PYTHON) -m venv $(VENV)
	@$(call QUIET_PIP,--upgrade pip)

# Reinstall only when a requirements file changed (stamp files).
# The project itself in editable mode (no dependencies): spaCy finds the domain model's
# head through its entry points, so `spacy.load` of an exported model works anywhere.
$(VENV)/.installed: requirements.txt pyproject.toml | $(VENV)/bin/python
	@$(call QUIET_PIP,torch==2.13.0)
	@$(call QUIET_PIP,-r requirements.txt)
	@$(call QUIET_PIP,--no-deps -e .)
	@touch $@

$(VENV)/.installed-dev: requirements-dev.txt $(VENV)/.installed
	@$(call QUIET_PIP,-r requirements-dev.txt)
	@touch $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

# Debian's Chromium for the browser tests (Playwright drives it; no browser download).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for browser tests..."; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

# Debian's Tesseract for scanned PDFs (OCR during import, and its tests).
tesseract:
	@command -v tesseract >/dev/null 2>&1 || { \
	  echo "Installing Debian's tesseract-ocr for scanned PDFs..."; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq tesseract-ocr >/dev/null; }

# A random SECRET_KEY, written once and never replaced (sessions survive restarts).
secret: $(SECRET_KEY_FILE)
$(SECRET_KEY_FILE):
	@mkdir -p $(dir $@)
	@umask 077 && python3 -c "import secrets; print(secrets.token_urlsafe(64))" > $@.tmp && mv $@.tmp $@
	@chmod 600 $@
	@echo "Wrote a new secret key to $@ (keep it private; never commit it)."

migrate: install secret
	@echo "Migrating the database and preparing the models..."
	@$(RUN_ENV) $(PY) manage.py migrate --noinput -v 0
	@$(RUN_ENV) $(PY) manage.py prepare_models

# Three hearings to review, plus one approved by a scripted reviewer (for the dashboard).
demo: migrate
	@$(RUN_ENV) $(PY) manage.py create_demo_accounts --passwords-file $(DEMO_PASSWORDS)
	@$(RUN_ENV) $(PY) manage.py load_demo --reviewed 1

# Static files for whitenoise (DEBUG is off: nothing is served from static/ directly).
static: install secret
	@$(RUN_ENV) $(PY) manage.py collectstatic --noinput -v 0

# Serve the app with gunicorn (DEBUG off) and one background worker (more: WORKERS=2).
# `run_workers` supervises the workers: one that dies is started again (docs/workers.md);
# they run at a lower CPU priority than the server (WORKER_NICE, default 10).
run: demo static tesseract
	@echo "Starting $(WORKERS) worker(s) and the server on http://$(HOST):$(PORT)/"
	@trap 'kill 0' INT TERM EXIT; \
	$(RUN_ENV) $(PY) manage.py create_demo_accounts --show-box $(DEMO_PASSWORDS) \
	  --after-workers $(WORKERS) & \
	$(RUN_ENV) ANONREVIEW_WORKERS=$(WORKERS) \
	  $(PY) manage.py run_workers --workers $(WORKERS) --interval 0.2 --preload-detectors & \
	$(RUN_ENV) $(VENV)/bin/gunicorn anonreview.wsgi:application --preload --bind $(HOST):$(PORT) \
	  --workers $(WEB_WORKERS) --access-logfile - --access-logformat $(ACCESS_LOG)

worker: install secret tesseract
	$(RUN_ENV) $(PY) manage.py run_workers --workers $(WORKERS) --interval 0.2

# `migrate` too (it writes the secret key first): after `make test` alone the README's
# command-line tools run (`leak_report` reads the allow-list from the database).
test: install-dev chromium tesseract migrate
	$(VENV)/bin/lint-imports
	$(VENV)/bin/pytest $(PYTEST_ARGS)

lint: install-dev
	$(VENV)/bin/lint-imports
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install-dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: install secret
	$(RUN_ENV) $(PY) manage.py bench_annotate --words 15000

# Six generated hearings through upload, import and annotation on 1 and 2 workers.
bench-corpus: migrate
	$(RUN_ENV) $(PY) manage.py bench_corpus --n 6 --words 15000 --workers 1,2

clean:
	rm -rf $(VENV) staticfiles .pytest_cache
