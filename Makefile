# The two commands of the README. Both set up what is missing, build, then run.
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: demo test setup setup-test configure build bench format format-check sanitize fuzz-build fuzz fuzz-long tidy clean

# The main job: `tilecraft bench --smoke` on the shipped suite (tasks/) with its expert solutions (solutions/):
# the table on the terminal, the Markdown and HTML reports in $(BUILD)/demo. It needs only the `tilecraft`
# executable (it builds the kernels it runs itself); the rest of the tree builds for `make test`. Goldens and
# built kernels are cached in $(BUILD)/cache, so a second run takes seconds.
demo: configure
	cmake --build $(BUILD) -j$(JOBS) --target tilecraft
	rm -rf $(BUILD)/demo
	./$(BUILD)/cli/tilecraft bench tasks --solutions solutions --smoke --out $(BUILD)/demo --cache $(BUILD)/cache
	@echo "reports: $(BUILD)/demo/summary.md $(BUILD)/demo/report.html"

test: setup-test build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

setup:
	@bash scripts/setup.sh

# What only the tests need beyond the demo: a browser, Slurm, clang-format, clang with libFuzzer.
setup-test:
	@bash scripts/setup.sh test

configure: setup
	cmake -S . -B $(BUILD) -G Ninja

build: configure
	cmake --build $(BUILD) -j$(JOBS)

bench: build
	bash bench/run.sh $(BUILD)

# CI's sanitizer run (docs/architecture.md, "CI"): a Debug build with ASan + UBSan in its own folder, and the unit
# tests of the toolchain libraries run there. The end-to-end tests, which build kernels with g++ per case, stay
# in `make test`: under the sanitizers they would take far longer than they could find.
ASAN_BUILD ?= build-asan
# perf_tests is left out: building it compiles 7 kernels against the emulator and runs 14 traces of them as a build
# step; under ASan at -O0 the largest trace alone takes 36 s, and the kernels' build is minutes on 2 cores.
SANITIZE_TESTS = support/support_tests dsl/dsl_tests ir/ir_tests passes/passes_tests interp/interp_tests llm/llm_tests \
                 codegen/codegen_tests
# codegen_tests' end-to-end suites compile and emulate whole kernels, and two project tests run g++ on the
# generated sources (the sanitized code is then g++, not ours); its emitter, golden and other project tests stay.
SANITIZE_FILTER_codegen_tests = -*CodegenE2E.*:CodegenCube*:CodegenLauncher*:LauncherErrors*:$\
Project.OpKernelTypeChecksAgainstTheEmulatorHeaders:Project.BuildScriptOverlaysTheSourcesOnMsopgensSkeleton
sanitize: export ASAN_OPTIONS = detect_leaks=1:strict_string_checks=1
sanitize: export UBSAN_OPTIONS = print_stacktrace=1:halt_on_error=1
sanitize: setup
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DTILECRAFT_SANITIZE=ON
	cmake --build $(ASAN_BUILD) -j$(JOBS) --target $(notdir $(SANITIZE_TESTS))
	@set -e; for t in $(SANITIZE_TESTS); do \
	  name=$$(basename $$t); filter=$$(case $$name in codegen_tests) echo '$(SANITIZE_FILTER_codegen_tests)';; \
	    *) echo '*';; esac); \
	  echo "sanitize: $$name --gtest_filter=$$filter"; \
	  (cd $(ASAN_BUILD)/$$(dirname $$t) && ./$$name --gtest_brief=1 --gtest_filter="$$filter"); \
	done

# Coverage-guided fuzzing (docs/fuzzing.md): the libFuzzer targets (the front end, the .npy reader, the cases.csv
# reader) in their own clang build (fuzz/libfuzzer/clang.cmake, ASan + UBSan), each run for FUZZ_SECONDS: 20 in
# CI, 600 for `make fuzz-long` unless given (`make fuzz-long FUZZ_SECONDS=3600`). The g++ builds never see them.
FUZZ_BUILD ?= build-fuzz
FUZZ_TARGETS ?= frontend npy csv
fuzz-build: setup-test
	cmake -S . -B $(FUZZ_BUILD) -G Ninja -C fuzz/libfuzzer/clang.cmake
	cmake --build $(FUZZ_BUILD) -j$(JOBS) --target $(addprefix fuzz_,$(FUZZ_TARGETS))
fuzz: fuzz-build
	bash fuzz/libfuzzer/run.sh $(FUZZ_BUILD) $(or $(FUZZ_SECONDS),20) $(FUZZ_TARGETS)
fuzz-long: fuzz-build
	bash fuzz/libfuzzer/run.sh $(FUZZ_BUILD) $(or $(FUZZ_SECONDS),600) $(FUZZ_TARGETS)

# Style tools, with the configs in the repository (.clang-format, .clang-tidy). CI runs format-check.
SOURCES = $(shell git ls-files '*.cpp' '*.h' | grep -v -e '^samples/' -e '/golden/' -e '/golden_project/' -e '/testdata/' -e '/data/')
format:
	clang-format -i $(SOURCES)

# Debian 12's clang-format 14: another version may lay out a few constructs differently.
format-check:
	@command -v clang-format >/dev/null || { echo "error: clang-format not found; hint: install the Debian package clang-format" >&2; exit 1; }
	@clang-format --dry-run --Werror $(SOURCES) && echo "format-check: $(words $(SOURCES)) files formatted as .clang-format says"

tidy: build
	clang-tidy -p $(BUILD) --quiet $(filter %.cpp,$(filter-out emu/% %_test.cpp,$(SOURCES)))

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
