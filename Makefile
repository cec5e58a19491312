# SPDX-License-Identifier: BSD-3-Clause
# simpi: the two commands of README.md.
#   make demo   install missing Debian packages, build, run the flagship example
#   make check  build and run every test, then again under ASan+UBSan, the
#               fuzzers, and the MPICH test suite when MPICH_TESTS=DIR is set
BUILD ?= build
JOBS ?= 2

.PHONY: all demo check deps deps-test deps-bench build build-asan test test-asan fuzz bench conformance format clean install install-prefix

PREFIX ?= /usr/local

all: build

# scripts/install-deps in layers: what building and the demo need, what the
# tests need, what the benchmarks need (each command installs its own)
deps:
	./scripts/install-deps build

deps-test:
	./scripts/install-deps test

deps-bench:
	./scripts/install-deps bench

# the release build, guided by a profile of simpi's own runs (PGO=0: without)
build:
	./scripts/build-release $(BUILD) $(JOBS)

build-asan:
	cmake -S . -B $(BUILD)-asan -DCMAKE_BUILD_TYPE=Debug -DSIMPI_SANITIZE=ON >/dev/null
	cmake --build $(BUILD)-asan -j $(JOBS)

demo: deps build
	./$(BUILD)/simpi replay examples/traces/halo2d.trace
	./$(BUILD)/simpicc -O2 -o $(BUILD)/heat examples/heat/heat.c -lm
	./$(BUILD)/simpi run -n 16 ./$(BUILD)/heat

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan: build-asan
	cd $(BUILD)-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

fuzz:
	CC=clang cmake -S . -B $(BUILD)-fuzz -DCMAKE_BUILD_TYPE=Debug -DSIMPI_FUZZ=ON >/dev/null
	cmake --build $(BUILD)-fuzz -j $(JOBS) --target fuzz_platform fuzz_trace fuzz_jobs
	./tests/fuzz/run-fuzzers $(BUILD)-fuzz

check: deps-test test test-asan fuzz conformance

# The MPICH test suite (SimGrid's teshsuite/smpi/mpich3-test, not part of
# simpi) against simpi: make conformance MPICH_TESTS=DIR [CONFORMANCE_DIRS="pt2pt coll"]
conformance: build
	@if [ -n "$(MPICH_TESTS)" ] && [ -d "$(MPICH_TESTS)" ]; then ./tests/conformance/run-mpich $(BUILD) $(MPICH_TESTS) $(CONFORMANCE_DIRS); \
	else echo "conformance: no MPICH test suite at '$(MPICH_TESTS)' (set MPICH_TESTS=DIR); skipped"; fi

bench: deps-bench build
	./bench/replay-stencil
	./bench/online-allreduce
	./bench/privatize
	./bench/fortran-stencil
	./bench/analysis
	./bench/validate
	./bench/validate-runs
	./bench/hybrid
	./bench/split-busy
	./bench/round2

# never into this source tree (make install PREFIX=$HOME/simpi from a clone
# at ~/simpi would mix the installed tree with the sources)
install: install-prefix
	$(MAKE) build
	cmake --install $(BUILD) --prefix $(PREFIX)

install-prefix:
	@if [ -d "$(PREFIX)" ] && [ "$$(cd "$(PREFIX)" && pwd -P)" = "$$(pwd -P)" ]; then \
	  echo "make install: PREFIX=$(PREFIX) is this source tree; install elsewhere (e.g. PREFIX=$$HOME/.local/simpi)" >&2; exit 2; fi

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) $(BUILD)-asan $(BUILD)-fuzz
