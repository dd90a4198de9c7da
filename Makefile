# cowtail -- thin wrapper over CMake that also installs Debian packages.
#
#   make demo    build, then run the main job (cowtail report) on samples/
#   make readme-table  the demo, then README's headline table rewritten from it
#   make test    build and run every test, also under ASan+UBSan, then
#                the build without export and capture (make test-min),
#                then fuzz every target for FUZZ_SECONDS (make fuzz-smoke)
#   make bench   build and run the benchmarks (bench/README.md)
#   make golden  rewrite every golden file (whole outputs, chart layouts,
#                workbooks) from the current code; review the git diff
#   make gallery docs/gallery/: one current PNG of each chart kind and a
#                screenshot of index.html; review the images
#   make package build/cowtail_<version>_amd64.deb (CPack, Depends from
#                dpkg-shlibdeps)
#   make test-package  build the .deb, install it with dpkg -i (as root;
#                otherwise unpack it), run the installed cowtail

BUILD ?= build
ASAN_BUILD ?= build-asan
MIN_BUILD ?= build-min
FUZZ_BUILD ?= build-fuzz
# 26 targets: 6 s each keeps `make test` within twelve minutes on 2 cores
FUZZ_SECONDS ?= 6
FUZZ_RUNS ?= 5000
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
DEMO_OUT ?= $(BUILD)/demo

# Debian packages the build, the tests, the package and the benchmarks
# need (dpkg-dev and file: CPack's dpkg-shlibdeps; groff-base and man-db:
# checking the man page; gzip: compressing it; clang and libclang-rt-14-dev:
# libFuzzer for make fuzz-smoke; tidy and chromium: validating index.html
# and rendering it headless in e2e_html).
DEBS = cmake gcc make pkg-config libsqlite3-dev libcjson-dev zlib1g-dev \
       libxlsxwriter-dev libcairo2-dev libssl-dev libcurl4-openssl-dev clickhouse-server curl \
       fonts-dejavu-core sqlite3 bc time unzip redis-server redis-tools libhiredis-dev tidy chromium python3 \
       dpkg-dev file groff-base man-db gzip clang libclang-rt-14-dev

.PHONY: all deps build test test-asan test-min test-package fuzz-smoke package demo readme-table bench golden gallery clean

all: build

deps:
	@missing=""; \
	for p in $(DEBS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "missing Debian packages; run:"; \
	    echo "  sudo apt-get install -y$$missing"; exit 2; \
	  fi; \
	fi

# make test and make bench also build bench/ and tools/ (the calibration
# check runs as a test); a plain make build does not.
test bench: CMAKE_FLAGS += -DCOWTAIL_BENCH=ON

build: deps
	cmake -S . -B $(BUILD) -DCOW_WERROR=ON $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j$(JOBS)

# -O1 (AddressSanitizer's own advice): the same checks, the suite in about
# half the time of -O0; asserts stay on (a Debug build).
test-asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCOW_WERROR=ON -DCOW_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
	  -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DCOWTAIL_BENCH=ON
	cmake --build $(ASAN_BUILD) -j$(JOBS)
	cd $(ASAN_BUILD) && ctest --output-on-failure -j$(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)
	$(MAKE) --no-print-directory test-package
	$(MAKE) --no-print-directory test-asan
	$(MAKE) --no-print-directory test-min
	$(MAKE) --no-print-directory fuzz-smoke

# Every libFuzzer target (each parser, run.json, thresholds, the tree
# walk) for FUZZ_SECONDS (at most FUZZ_RUNS inputs, seed 1, from a fresh
# work folder) on top of its corpus; fails on a crash. The fixed seed
# makes the inputs tried the same on every machine: a slower machine
# tries a prefix of them. Longer, random campaigns: tests/fuzz/README.md. Needs
# clang's libFuzzer (clang, libclang-rt-14-dev); without it, says so and
# skips. The corpus replay itself runs in ctest in every build.
# The build without the adapters (no libcurl, no hiredis): cowtail
# compiles under -Werror and the tests that differ without them pass (the commands
# say they were not built; hostile cases skip the export; app/ prints
# nothing; no circle).
test-min: deps
	cmake -S . -B $(MIN_BUILD) -DCOW_WERROR=ON -DCOWTAIL_EXPORT=OFF -DCOWTAIL_CAPTURE=OFF
	cmake --build $(MIN_BUILD) -j$(JOBS) --target cowtail cow_circle_fixture
	cd $(MIN_BUILD) && ctest --output-on-failure -j$(JOBS) \
	  -R '^(app_quiet|app_quiet_finds|e2e_noexport|e2e_nocapture|hostile3|circles_.*)$$'

fuzz-smoke:
	@if ! command -v clang >/dev/null 2>&1 || \
	    ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then \
	  echo "fuzz-smoke: skipped: clang's libFuzzer is not installed (apt-get install clang libclang-rt-14-dev)"; \
	else \
	  CC=clang cmake -S . -B $(FUZZ_BUILD) -DCOW_FUZZ=ON -DCOW_WERROR=ON >/dev/null && \
	  cmake --build $(FUZZ_BUILD) -j$(JOBS) --target fuzz_parser fuzz_replay && \
	  rm -rf $(FUZZ_BUILD)/fuzz-work && \
	  COW_FUZZ_FLAGS="-seed=1 -runs=$(FUZZ_RUNS) $(COW_FUZZ_FLAGS)" \
	    bash tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS); \
	fi

package: build
	rm -f $(BUILD)/cowtail_*.deb
	cd $(BUILD) && cpack -G DEB
	@ls $(BUILD)/cowtail_*_amd64.deb

test-package: package
	bash packaging/test-deb.sh $(BUILD)/cowtail_*_amd64.deb samples/steady

# samples/not-loaded holds a file ingest refuses on purpose: report exits 1
# ("some input rejected") and says so in summary.md; any other code fails.
demo: build
	rm -f $(DEMO_OUT).db $(DEMO_OUT).db-wal $(DEMO_OUT).db-shm
	./$(BUILD)/cowtail report --db $(DEMO_OUT).db --out $(DEMO_OUT)-report --force \
	  --thresholds samples/fleet/thresholds.json samples/; rc=$$?; test $$rc -le 1
	@echo "open $(DEMO_OUT)-report/index.html (summary.md, charts and report.xlsx beside it)"

# README's headline table, rewritten from the demo's summary.md (review
# the diff: the sentences around the table are not rewritten)
readme-table: demo
	python3 tools/readme_table.py --write README.md $(DEMO_OUT)-report/summary.md
	git diff --stat README.md

golden: build
	cd $(BUILD) && COW_UPDATE_GOLDEN=1 ctest --output-on-failure -R 'e2e_golden|test_chart|test_report_charts|test_xlsx'
	git status --short tests/data

gallery: build
	bash tools/gallery.sh ./$(BUILD)/cowtail docs/gallery

bench: build
	bash bench/ingest.sh

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(MIN_BUILD) $(FUZZ_BUILD)
