# TweetieDB — make demo | make test | make bench
SWIFT ?= swift
# The real captures of the book's API cache (read-only, beside the repository) are an extra test
# layer: TWEETIE_FIXTURES is set only when the folder exists (or when you set it yourself); without
# it the real-capture tests are skipped with one line each. The project's own API cache in
# Tests/Fixtures/APICache is always used.
TWEETIE_FIXTURES ?= $(patsubst %/,%,$(wildcard $(abspath $(CURDIR)/../shared/fixtures/twitter-api-v1.1)/))
ifneq ($(TWEETIE_FIXTURES),)
export TWEETIE_FIXTURES
endif

.PHONY: all deps build demo test test-sanitize torture-hostile fuzz bench bench-compare docs clean
.PHONY: test-browser soak-browser

all: build

# The package enables no trait by default (a library user gets the store and `@Record` only); every
# target here asks for the executables' traits. `Serve` turns `Tools` on. `Replicate` is the
# PostgreSQL replication stack (TweetieReplication, on postgres-nio).
TRAITS ?= --traits Tools,Serve,Replicate

# Installs LMDB (liblmdb-dev, plus lmdb-utils for mdb_stat) with apt-get when pkg-config cannot find it.
deps:
	@if pkg-config --exists lmdb; then :; else \
	  echo "make: LMDB not found by pkg-config; installing liblmdb-dev and lmdb-utils with apt-get"; \
	  if ! command -v apt-get >/dev/null 2>&1; then \
	    echo "make: error: apt-get is not available. Install LMDB's development files (package liblmdb-dev or lmdb) and pkg-config yourself." >&2; exit 1; fi; \
	  SUDO=""; if [ "$$(id -u)" != "0" ]; then \
	    if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else \
	      echo "make: error: installing liblmdb-dev needs root, and sudo is not available. Run: apt-get install liblmdb-dev lmdb-utils pkg-config" >&2; exit 1; fi; fi; \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq liblmdb-dev lmdb-utils pkg-config >/dev/null \
	    || { echo "make: error: apt-get could not install liblmdb-dev; install it by hand and retry" >&2; exit 1; }; \
	  pkg-config --exists lmdb || { echo "make: error: liblmdb-dev installed but pkg-config still cannot find lmdb" >&2; exit 1; }; \
	fi

build: deps
	$(SWIFT) build $(TRAITS)

# The main job: the live list timeline on the simulated source, stored in the default database
# ($$TWEETIE_DB, else ~/.local/share/tweetie-db). Pass options with DEMO_ARGS="--ticks 30".
#
# On a checkout that has built nothing yet (a fresh clone), the demo builds with the Tools trait only,
# without the Serve trait's HTTP stack (Package.swift), which tweetie-db does not use: SwiftPM fetches
# 7 packages instead of 30.
# It also builds the way a one-off build is fastest: whole modules (-wmo, with as many code-generation
# threads as cores) and no debug information. swift-syntax, which @Record needs, is most of that
# build; a fresh clone on 2 cores, back to back: 158 s to build with SwiftPM's defaults, 124 s so
# (CPU 266 s against 197 s). The price is paid once, later: the first `make test` compiles those
# packages again, incrementally and with debug information.
# Once the HTTP stack is there (after `make test` or `make serve`), the demo uses the other targets'
# traits and flags, so that switching between `make demo` and `make test` recompiles nothing.
DEMO_FAST_FLAGS = --traits Tools -debug-info-format none -Xswiftc -wmo -Xswiftc -num-threads -Xswiftc $(shell nproc 2>/dev/null || echo 2)
DEMO_BUILD_FLAGS ?= $(if $(wildcard .build/checkouts/hummingbird),$(TRAITS),$(DEMO_FAST_FLAGS))
demo: deps
	$(SWIFT) build $(DEMO_BUILD_FLAGS) --product tweetie-db
	$$($(SWIFT) build $(DEMO_BUILD_FLAGS) --show-bin-path)/tweetie-db demo $(DEMO_ARGS)

# No test imports an executable's module (the CLI tests decode its JSON with their own types, as a
# user's script would): a cold `--build-tests` could compile such a test before the module exists
# ("no such module 'tweetie_db'", a SwiftPM bug).
#
# PostgreSQL: the tests that need a real server find it in TWEETIE_POSTGRES_URL. When that is not
# set, `make test` starts a throwaway cluster once the build is done (Tests/Postgres/cluster, in a
# fresh directory under /tmp: Debian's postgresql, installed when missing, run as an unprivileged
# user on a free 127.0.0.1 port), exports its URL as TWEETIE_POSTGRES_URL and its directory as
# TWEETIE_POSTGRES_CLUSTER (for the tests that restart it), and stops and removes it when the tests
# end, fail or are interrupted, keeping their exit status. When TWEETIE_POSTGRES_URL is set, the
# tests use that server and nothing is started.
POSTGRES_CLUSTER = Tests/Postgres/cluster
test: deps
	$(SWIFT) build $(TRAITS) --build-tests
	@if [ -n "$${TWEETIE_POSTGRES_URL:-}" ]; then \
	  echo "make: the tests use the PostgreSQL server of TWEETIE_POSTGRES_URL"; \
	  echo "$(SWIFT) test $(TRAITS) --skip-build"; \
	  exec $(SWIFT) test $(TRAITS) --skip-build; \
	fi; \
	dir=$$(mktemp -d /tmp/tweetie-postgres.XXXXXX) || exit 1; \
	trap '$(POSTGRES_CLUSTER) stop "$$dir" || echo "make: warning: the PostgreSQL cluster in $$dir could not be stopped" >&2' EXIT; \
	trap 'exit 130' INT; trap 'exit 143' TERM; trap 'exit 129' HUP; \
	url=$$($(POSTGRES_CLUSTER) start "$$dir") || { \
	  echo "make: error: could not start a PostgreSQL server for the tests (see above); or set TWEETIE_POSTGRES_URL to a server's URL" >&2; exit 1; }; \
	export TWEETIE_POSTGRES_URL="$$url" TWEETIE_POSTGRES_CLUSTER="$$dir"; \
	echo "make: TWEETIE_POSTGRES_URL=$$url (a cluster in $$dir, stopped after the tests)"; \
	echo "$(SWIFT) test $(TRAITS) --skip-build"; \
	$(SWIFT) test $(TRAITS) --skip-build

# LeakSanitizer is off: its reports are Swift weak-reference side tables (whose pointers it cannot
# see), Foundation's Process/Pipe and libcurl; see RELIABILITY-hostile.md. TSan cannot see
# Synchronization.Mutex (futex), hence Tests/Sanitizers/tsan.supp.
test-sanitize: deps
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test $(TRAITS) --sanitize=address --scratch-path .build-asan
	TSAN_OPTIONS="suppressions=$(CURDIR)/Tests/Sanitizers/tsan.supp" $(SWIFT) test $(TRAITS) --sanitize=thread --scratch-path .build-tsan

# The hostile-environment campaigns, as root (full-disk mounts a tmpfs).
# backup-kill: `tweetie-db backup` SIGKILLed at random moments BACKUP_KILL_TRIALS times; the
# destination must be left without data.mdb or with a complete, verifying, owner-only backup.
# full-disk: creation, re-creation after freeing space, and reads of an intact database on a tmpfs
# with 0 to 32 KiB free: no SIGBUS, never "corrupt", never a database left unusable.
# Each exits non-zero on any failure.
BACKUP_KILL_TRIALS ?= 30
torture-hostile: deps
	$(SWIFT) build $(TRAITS) --product tweetie-db
	$(SWIFT) build $(TRAITS) --product tweetie-torture
	$$($(SWIFT) build $(TRAITS) --show-bin-path)/tweetie-torture backup-kill --trials $(BACKUP_KILL_TRIALS) $(BACKUP_KILL_ARGS)
	$$($(SWIFT) build $(TRAITS) --show-bin-path)/tweetie-torture full-disk $(FULL_DISK_ARGS)

# Deterministic mutation fuzzing of Twitter JSON decoding and NDJSON import, FUZZ_SECONDS per
# target (statuses, members, users, ndjson). Crash, hang and misbehaviour inputs go to .fuzz/findings;
# exits non-zero when there is one. FUZZ_ARGS="--seed 7 --corpus-out Tests/Fixtures/FuzzCorpus" adds options.
FUZZ_SECONDS ?= 60
fuzz: deps
	$(SWIFT) build $(TRAITS) -c release --product tweetie-fuzz
	$$($(SWIFT) build $(TRAITS) -c release --show-bin-path)/tweetie-fuzz --seconds $(FUZZ_SECONDS) --work .fuzz $(FUZZ_ARGS)

# Benchmarks live in their own package so `make test` never builds them.
bench: deps
	cd Benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark

bench-compare: deps
	cd Benchmarks && $(SWIFT) run -c release BenchCompare

# The DocC documentation of TweetieDB and TweetieSync (swift-docc-plugin, a package dependency:
# nothing is installed), one archive per target under .build/docs. Every DocC warning (an
# unresolved symbol link, a bad article) fails it: docc runs with --warnings-as-errors, and the
# output is checked for warnings as well.
DOCS_DIR ?= .build/docs
docs: deps
	@rm -rf $(DOCS_DIR) && mkdir -p $(DOCS_DIR)
	@$(SWIFT) package --allow-writing-to-directory $(DOCS_DIR) generate-documentation \
	  --target TweetieDBCore --target TweetieDB --target TweetieSync --output-path $(DOCS_DIR) --warnings-as-errors \
	  > $(DOCS_DIR)/docc.log 2>&1; status=$$?; cat $(DOCS_DIR)/docc.log; \
	  if [ $$status -ne 0 ] || grep -E "warning:|error:" $(DOCS_DIR)/docc.log >/dev/null; then \
	    echo "make: error: the documentation build failed or warned (see above, or $(DOCS_DIR)/docc.log)" >&2; exit 1; fi
	@echo "documentation: $(DOCS_DIR)/TweetieDBCore.doccarchive (the store), $(DOCS_DIR)/TweetieDB.doccarchive (the macros), $(DOCS_DIR)/TweetieSync.doccarchive"

clean:
	rm -rf .build .build-asan .build-tsan .build-fuzz .fuzz Benchmarks/.build

# The page of tweetie-serve in headless Chromium (Tests/Browser, pytest): installs Debian's chromium,
# chromium-driver and an emoji font, and Python's selenium and pytest when missing, builds tweetie-serve and
# tweetie-db, then checks the page's changeset applier on generated messages and the page against
# `tweetie-db feed --once` while the CLI syncs and deletes. Screenshots go to .build/browser-tests;
# BROWSER_ARGS="-k apply" passes options to pytest.
BROWSER_TESTS = PYTHONDONTWRITEBYTECODE=1 TWEETIE_BIN="$$($(SWIFT) build $(TRAITS) --show-bin-path)" python3 -m pytest -p no:cacheprovider Tests/Browser
test-browser: deps
	Tests/Browser/install-dependencies
	$(SWIFT) build $(TRAITS) --product tweetie-serve
	$(SWIFT) build $(TRAITS) --product tweetie-db
	$(BROWSER_TESTS) $(BROWSER_ARGS)

# The page's self-check (?verify=1) over SOAK_SECONDS (default 300) with a sync every second.
SOAK_SECONDS ?= 300
soak-browser: deps
	Tests/Browser/install-dependencies
	$(SWIFT) build $(TRAITS) --product tweetie-serve
	$(SWIFT) build $(TRAITS) --product tweetie-db
	TWEETIE_SOAK_SECONDS=$(SOAK_SECONDS) $(BROWSER_TESTS) -s -k soak $(BROWSER_ARGS)

# The live timeline in a browser: tweetie-serve on the default database ($$TWEETIE_DB,
# else ~/.local/share/tweetie-db; fill it first with `make demo`); then open http://127.0.0.1:8080/.
# SERVE_ARGS="--port 9000 --max-clients 100" passes options. Ctrl-C stops it.
.PHONY: serve bench-serve bench-page
serve: deps
	$(SWIFT) build $(TRAITS) --product tweetie-serve
	$$($(SWIFT) build $(TRAITS) --show-bin-path)/tweetie-serve $(SERVE_ARGS)

# The serve load benchmark (not a test): SERVE_BENCH_CLIENTS SSE clients follow the list feed of a
# release tweetie-serve on a scratch database while SERVE_BENCH_COMMITS commits land; prints commit →
# last client p50/p99 and the server's RSS and CPU (BENCHMARKS.md, "tweetie-serve fan-out"). Both
# processes raise their own file-descriptor limit to the client count (and say so when the hard limit
# is too low); SERVE_BENCH_ARGS="--source-addresses 2" spreads the clients over 127.0.0.1 and .2.
SERVE_BENCH_CLIENTS ?= 1000
SERVE_BENCH_COMMITS ?= 100
SERVE_BENCH_PORT ?= 18080
bench-serve: deps
	$(SWIFT) build $(TRAITS) -c release --product tweetie-db
	$(SWIFT) build $(TRAITS) -c release --product tweetie-serve
	$(SWIFT) build $(TRAITS) -c release --product tweetie-serve-bench
	@bin=$$($(SWIFT) build $(TRAITS) -c release --show-bin-path); dir=$$(mktemp -d); db=$$dir/db; \
	$$bin/tweetie-db sync --simulated --seed 5 --ticks 10 --db $$db >/dev/null || exit 1; \
	$$bin/tweetie-serve --db $$db --port $(SERVE_BENCH_PORT) --max-clients $(SERVE_BENCH_CLIENTS) >$$dir/serve.log & pid=$$!; \
	for i in $$(seq 300); do grep -q listening $$dir/serve.log && break; kill -0 $$pid 2>/dev/null || break; sleep 0.1; done; \
	grep -q listening $$dir/serve.log || { echo "tweetie-serve did not start on port $(SERVE_BENCH_PORT)"; kill $$pid 2>/dev/null; rm -rf $$dir; exit 1; }; \
	$$bin/tweetie-serve-bench --db $$db --port $(SERVE_BENCH_PORT) --clients $(SERVE_BENCH_CLIENTS) --commits $(SERVE_BENCH_COMMITS) --server-pid $$pid $(SERVE_BENCH_ARGS); \
	status=$$?; kill -TERM $$pid; wait $$pid; rm -rf $$dir; exit $$status

# The page's benchmark (not a test): headless Chromium on a release tweetie-serve of generated
# stores of BENCH_PAGE_SIZES list tweets; the page's first paint of the default window and ten
# "load older" steps (BENCHMARKS.md, "The page at a million tweets").
BENCH_PAGE_SIZES ?= 10000 100000 1000000
bench-page: deps
	Tests/Browser/install-dependencies
	$(SWIFT) build $(TRAITS) -c release --product tweetie-db
	$(SWIFT) build $(TRAITS) -c release --product tweetie-serve
	cd Tests/Browser && PYTHONDONTWRITEBYTECODE=1 BENCH_PAGE_SIZES="$(BENCH_PAGE_SIZES)" TWEETIE_BIN="$$(cd ../.. && $(SWIFT) build $(TRAITS) -c release --show-bin-path)" python3 bench_page.py

# The tweetie-db man page (and tweetie-torture's), from the command-line definitions, with
# swift-argument-parser's generate-manual plugin: .build/plugins/GenerateManual/outputs/tweetie-db/tweetie-db.1
.PHONY: man
man: deps
	$(SWIFT) package $(TRAITS) plugin generate-manual --configuration debug
	@echo "man -l .build/plugins/GenerateManual/outputs/tweetie-db/tweetie-db.1"

# Replication through PostgreSQL, live in a browser: a throwaway PostgreSQL cluster in a temporary
# directory (run as the unprivileged user tweetie-test when started as root: PostgreSQL refuses
# root), two stores filled from different sources (the first by the simulated source, the second
# from the project's API cache), both replicating with tweetie-replicate run, and tweetie-serve on
# the second store: open the URL it prints and watch the first store's tweets arrive, then every
# REPLICATION_DEMO_INTERVAL seconds the simulated source advances two steps in the first store and
# its new tweets show up on the page. Ctrl-C
# (or REPLICATION_DEMO_SECONDS) stops everything and removes the cluster and the stores.
REPLICATION_DEMO_SECONDS ?= 0
REPLICATION_DEMO_INTERVAL ?= 5
REPLICATION_DEMO_PORT ?= 8080
.PHONY: demo-replication
demo-replication: deps
	$(SWIFT) build $(TRAITS) --product tweetie-db
	$(SWIFT) build $(TRAITS) --product tweetie-replicate
	$(SWIFT) build $(TRAITS) --product tweetie-serve
	@bin=$$($(SWIFT) build $(TRAITS) --show-bin-path); \
	work=$$(mktemp -d /tmp/tweetie-replication-demo.XXXXXX) || exit 1; pids=""; \
	trap 'for p in $$pids; do kill $$p 2>/dev/null; done; wait 2>/dev/null; $(POSTGRES_CLUSTER) stop "$$work/postgres" >/dev/null 2>&1; rm -rf "$$work"; echo "make: demo-replication cleaned up"' EXIT; \
	trap 'exit 130' INT; trap 'exit 143' TERM; \
	chmod 711 "$$work"; mkdir "$$work/postgres"; \
	url=$$($(POSTGRES_CLUSTER) start "$$work/postgres") || exit 1; \
	echo "make: PostgreSQL at $$url"; \
	"$$bin/tweetie-db" sync --simulated --ticks 3 --db "$$work/first" --format json >/dev/null || exit 1; \
	"$$bin/tweetie-db" sync --api-cache Tests/Fixtures/APICache --db "$$work/second" --format json >/dev/null || exit 1; \
	"$$bin/tweetie-replicate" init --postgres "$$url" || exit 1; \
	"$$bin/tweetie-replicate" run --db "$$work/second" --postgres "$$url" --name second --poll 1 & pids="$$pids $$!"; \
	"$$bin/tweetie-serve" --db "$$work/second" --port $(REPLICATION_DEMO_PORT) & pids="$$pids $$!"; \
	sleep 2; \
	echo "make: open http://127.0.0.1:$(REPLICATION_DEMO_PORT)/ — the first store's tweets arrive there now"; \
	"$$bin/tweetie-replicate" run --db "$$work/first" --postgres "$$url" --name first --poll 1 & pids="$$pids $$!"; \
	start=$$(date +%s); ticks=3; \
	while :; do \
	  sleep $(REPLICATION_DEMO_INTERVAL); \
	  ticks=$$((ticks + 2)); \
	  "$$bin/tweetie-db" sync --simulated --ticks $$ticks --db "$$work/first" --format json >/dev/null 2>&1 && echo "make: synced the simulated source two steps further into the first store"; \
	  if [ "$(REPLICATION_DEMO_SECONDS)" != "0" ] && [ $$(( $$(date +%s) - start )) -ge $(REPLICATION_DEMO_SECONDS) ]; then break; fi; \
	done; \
	"$$bin/tweetie-db" stats --db "$$work/second" --format json | head -c 400; echo

# The replication benchmark (not a test; BENCHMARKS.md, "Replication through PostgreSQL"): push and
# pull rates at batches of 1, 100 and 1,000, a new device's initial download against COPY of the
# same rows, and commit-to-changeset latency with 1 and 10 devices following, against the server of
# TWEETIE_POSTGRES_URL or a temporary cluster. REPLICATION_BENCH_ARGS="--download 1000000" passes
# options (tweetie-replicate-bench --help).
.PHONY: bench-replication
bench-replication: deps
	$(SWIFT) build $(TRAITS) -c release --product tweetie-replicate-bench
	@bin=$$($(SWIFT) build $(TRAITS) -c release --show-bin-path); \
	if [ -n "$${TWEETIE_POSTGRES_URL:-}" ]; then exec "$$bin/tweetie-replicate-bench" $(REPLICATION_BENCH_ARGS); fi; \
	dir=$$(mktemp -d /tmp/tweetie-postgres.XXXXXX) || exit 1; \
	trap '$(POSTGRES_CLUSTER) stop "$$dir"' EXIT; trap 'exit 130' INT; trap 'exit 143' TERM; \
	url=$$($(POSTGRES_CLUSTER) start "$$dir") || exit 1; \
	TWEETIE_POSTGRES_URL="$$url" "$$bin/tweetie-replicate-bench" $(REPLICATION_BENCH_ARGS)
