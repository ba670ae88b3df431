# Set-up and entry points. `make test` is the README's test command and what CI runs.
SWIFT ?= swift
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

.PHONY: deps arm64-deps browser-deps schema-deps build run test test-schema test-arm64 test-browser bench clean

# Debian's reference BLAS (cblas symbols live in libblas.so.3); installed only when missing.
deps:
	@if ! dpkg -s libblas-dev:$$(dpkg --print-architecture) >/dev/null 2>&1; then \
		echo "Installing libblas-dev (apt-get update first)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libblas-dev; \
	fi

build: deps
	$(SWIFT) build -c release --product dynamics

run: build
	"$$($(SWIFT) build -c release --show-bin-path)/dynamics" simulate

test: deps schema-deps
	$(SWIFT) test --disable-xctest
	$(MAKE) test-schema

# Python's jsonschema and PyYAML for the scene-file schema check (from PyPI when missing).
schema-deps:
	@python3 -c "import jsonschema, yaml" 2>/dev/null || python3 -m pip install --quiet jsonschema pyyaml

# Every built-in scene's export and every example scene file against the JSON Schema that
# `dynamics schema` prints (Tests/SceneSchema/check.py also checks that it rejects broken scenes).
SCHEMA_DIR := .build/schema

test-schema: schema-deps
	$(SWIFT) build --product dynamics
	@mkdir -p $(SCHEMA_DIR)
	@bin="$$($(SWIFT) build --show-bin-path)/dynamics"; \
	for name in $$("$$bin" scenes | grep -v "(example file" | cut -d' ' -f1); do "$$bin" scenes --export $$name --items 40 > $(SCHEMA_DIR)/$$name.json || exit 1; done; \
	"$$bin" schema > .build/scene.schema.json
	python3 Tests/SceneSchema/check.py .build/scene.schema.json $(SCHEMA_DIR)/*.json Sources/DynamicsScenes/Resources/examples/*

# The C kernel on arm64 (Tests/KernelOnArm64): the program is built natively and for arm64; the arm64
# build runs under qemu-aarch64 and checks the NEON kernels against the scalar ones, the laws, and that
# its states have the native run's bits. Installs, when missing: qemu-user, the arm64 cross toolchain,
# and libblas-dev:arm64 through Debian multiarch (this adds the arm64 architecture to dpkg).
CLANG ?= clang
ARM64_DIR := .build/arm64
KERNEL_LEVELS = $(CLANG) -std=c11 -O2 -Werror -D_POSIX_C_SOURCE=200809L -ICSources/DynamicsKernel/include \
	-ICSources/DynamicsKernel CSources/DynamicsKernel/*.c Tests/KernelOnArm64/kernel_levels.c -lblas -lm -lpthread

arm64-deps:
	@if ! command -v qemu-aarch64 >/dev/null || ! command -v aarch64-linux-gnu-ld >/dev/null || \
		! dpkg -s libblas-dev:arm64 >/dev/null 2>&1; then \
		echo "Installing qemu-user, gcc-aarch64-linux-gnu and libblas-dev:arm64 (adds the arm64 architecture)"; \
		$(SUDO) dpkg --add-architecture arm64 && $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq qemu-user gcc-aarch64-linux-gnu \
			libblas-dev:arm64 >/dev/null; \
	fi

test-arm64: deps arm64-deps
	@mkdir -p $(ARM64_DIR)
	$(KERNEL_LEVELS) -o $(ARM64_DIR)/kernel-levels-native
	$(KERNEL_LEVELS) --target=aarch64-linux-gnu -o $(ARM64_DIR)/kernel-levels
	$(ARM64_DIR)/kernel-levels-native --write-states $(ARM64_DIR)/native-states.txt
	qemu-aarch64 $(ARM64_DIR)/kernel-levels --compare-states $(ARM64_DIR)/native-states.txt

# The HTML playback in a real browser: Debian's chromium (installed when missing) opens a page that
# `dynamics simulate` wrote and Tests/Browser/check_playback.py checks that it loads without console
# errors, draws frames and is not blank.
BROWSER_DIR := .build/browser

browser-deps:
	@if ! command -v chromium >/dev/null; then \
		echo "Installing chromium"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; \
	fi

test-browser: deps browser-deps
	$(SWIFT) build --product dynamics
	@mkdir -p $(BROWSER_DIR)
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate bridge --seconds 4 --output $(BROWSER_DIR)/bridge.html --quiet
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate Sources/DynamicsScenes/Resources/examples/falling-square.json --output $(BROWSER_DIR)/square.html --quiet
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/bridge.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/square.html

bench: deps
	cd Benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark

clean:
	rm -rf .build Benchmarks/.build
