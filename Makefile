# The two commands of the README. Both set up what is missing, build, then run.
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: demo test setup build bench format tidy clean

demo: build
	./$(BUILD)/cli/tilecraft emu run --profile samples/*.cpp

test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

setup:
	@bash scripts/setup.sh

build: setup
	cmake -S . -B $(BUILD) -G Ninja
	cmake --build $(BUILD) -j$(JOBS)

bench: build
	bash bench/run.sh $(BUILD)

# Style tools, with the configs in the repository (.clang-format, .clang-tidy); not part of `make test`.
SOURCES = $(shell git ls-files '*.cpp' '*.h' | grep -v -e '^samples/' -e '/golden/' -e '/testdata/' -e '/data/')
format:
	clang-format -i $(SOURCES)

tidy: build
	clang-tidy -p $(BUILD) --quiet $(filter %.cpp,$(filter-out emu/% %_test.cpp,$(SOURCES)))

clean:
	rm -rf $(BUILD)
