# The two commands of the README. Both set up what is missing, build, then run.
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: demo test setup build bench clean

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

clean:
	rm -rf $(BUILD)
