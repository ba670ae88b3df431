# SPDX-License-Identifier: Apache-2.0
# Set-up and entry points. `make test` is the README's test command and what CI runs.
SWIFT ?= swift
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

.PHONY: deps arm64-deps browser-deps schema-deps slurm-deps build run dist test test-schema test-snippets test-version test-arm64 test-browser test-slurm test-asan test-tsan fuzz docs bench clean

# Debian's reference BLAS (cblas symbols live in libblas.so.3); installed only when missing.
deps:
	@if ! dpkg -s libblas-dev:$$(dpkg --print-architecture) >/dev/null 2>&1; then \
		echo "Installing libblas-dev (apt-get update first)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libblas-dev; \
	fi

# The commit `dynamics --version` reports, from git (hex digits, "-dirty" when tracked files have changes;
# "unknown" outside a git clone). Package.swift reads it as DYNAMICS_COMMIT.
GIT_COMMIT = $(shell c=$$(git rev-parse --short=12 HEAD 2>/dev/null) && { echo "$$c$$(test -z "$$(git status --porcelain --untracked-files=no 2>/dev/null)" || echo -dirty)"; } || echo unknown)

build: deps
	DYNAMICS_COMMIT=$(GIT_COMMIT) $(SWIFT) build -c release --product dynamics

run: build
	"$$(DYNAMICS_COMMIT=$(GIT_COMMIT) $(SWIFT) build -c release --show-bin-path)/dynamics" simulate

# A `dynamics` for machines without a Swift toolchain: the Swift standard library, Foundation and Dispatch
# linked statically (--static-swift-stdlib) and BLAS from Debian's static libblas.a (found first through
# its own -L folder), packed with its scene resources, licence and version into
# .build/dist/dynamics-VERSION-linux-ARCH.tar.gz, also unpacked as .build/dist/dynamics (the Containerfile's).
# The commit comes from git (DYNAMICS_COMMIT); the build has its own folder, so the commit is current.
DIST_DIR := .build/dist
DIST_ARCH := $(shell uname -m)

dist: deps
	@blas=/usr/lib/$(DIST_ARCH)-linux-gnu/libblas.a; \
	if [ ! -f "$$blas" ]; then \
		echo "make dist: $$blas is missing (Debian's libblas-dev ships it); without it the binary would need libblas.so.3 on every node" >&2; \
		exit 1; \
	fi; \
	mkdir -p $(DIST_DIR)/blas && ln -sf "$$blas" $(DIST_DIR)/blas/libblas.a; \
	commit=$(GIT_COMMIT); \
	echo "Building a static dynamics at commit $$commit"; \
	DYNAMICS_COMMIT=$$commit $(SWIFT) build -c release --product dynamics --static-swift-stdlib \
		--scratch-path $(DIST_DIR)/build -Xlinker -L$(CURDIR)/$(DIST_DIR)/blas
	@bin=$(DIST_DIR)/build/release/dynamics; \
	if ldd $$bin | grep -E 'libblas|libswift|libFoundation|libdispatch|libBlocksRuntime'; then \
		echo "make dist: $$bin still needs the shared libraries above" >&2; exit 1; \
	fi; \
	version=$$($$bin --version | cut -d' ' -f2); name=dynamics-$$version-linux-$(DIST_ARCH); \
	rm -rf $(DIST_DIR)/$$name $(DIST_DIR)/dynamics; mkdir -p $(DIST_DIR)/$$name/bin; \
	cp $$bin $(DIST_DIR)/$$name/bin/ && cp -R $(DIST_DIR)/build/release/*.resources $(DIST_DIR)/$$name/bin/; \
	cp LICENSE README.md CHANGELOG.md $(DIST_DIR)/$$name/; $$bin --version > $(DIST_DIR)/$$name/VERSION; \
	tar -C $(DIST_DIR) -czf $(DIST_DIR)/$$name.tar.gz $$name && cp -R $(DIST_DIR)/$$name $(DIST_DIR)/dynamics; \
	echo "$(DIST_DIR)/$$name.tar.gz: $$(cat $(DIST_DIR)/$$name/VERSION)"; \
	echo "  shared libraries: $$(ldd $$bin | awk '{print $$1}' | tr '\n' ' ')"

test: deps schema-deps
	$(SWIFT) test --disable-xctest
	@mkdir -p $(ARM64_DIR)
	$(KERNEL_LEVELS) -o $(ARM64_DIR)/kernel-levels-native && $(ARM64_DIR)/kernel-levels-native
	"$$($(SWIFT) build --show-bin-path)/SceneFuzzer" Tests/Fuzz/corpus/*
	$(MAKE) test-schema
	$(MAKE) test-snippets

# Every ```swift block of the README and the DocC articles, type-checked as written against the debug build
# (Tests/Snippets/check.py); a package manifest block is loaded with `swift package dump-package`.
test-snippets:
	$(SWIFT) build
	python3 Tests/Snippets/check.py "$$($(SWIFT) build --show-bin-path)" README.md Sources/*/*.docc/*.md

# `dynamics --version` of `make build` names the checkout's commit.
test-version: deps
	@want=$(GIT_COMMIT); DYNAMICS_COMMIT=$$want $(SWIFT) build -c release --product dynamics || exit 1; \
	got=$$("$$(DYNAMICS_COMMIT=$$want $(SWIFT) build -c release --show-bin-path)/dynamics" --version); \
	case "$$got" in *"(commit $$want;"*) echo "test-version: $$got";; \
	*) echo "test-version: expected commit $$want, got: $$got" >&2; exit 1;; esac

# Python's jsonschema and PyYAML for the scene-file schema check: Debian's python3-jsonschema and python3-yaml,
# installed when neither the first python3 on PATH nor Debian's /usr/bin/python3 has them (a stock Debian or
# Ubuntu Python refuses pip installs, PEP 668). SCHEMA_PYTHON is the first of the two that has both.
SCHEMA_PYTHON = $(shell for p in python3 /usr/bin/python3; do "$$p" -c "import jsonschema, yaml" 2>/dev/null && { echo "$$p"; break; }; done)

schema-deps:
	@if ! python3 -c "import jsonschema, yaml" 2>/dev/null && ! /usr/bin/python3 -c "import jsonschema, yaml" 2>/dev/null; then \
		echo "Installing Debian's python3-jsonschema and python3-yaml (apt-get update first)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-jsonschema python3-yaml >/dev/null; \
	fi

# Every built-in scene's export and every example scene file against the JSON Schema that
# `dynamics schema` prints (Tests/SceneSchema/check.py also checks that it rejects broken scenes).
SCHEMA_DIR := .build/schema

test-schema: schema-deps
	$(SWIFT) build --product dynamics
	@rm -rf $(SCHEMA_DIR) && mkdir -p $(SCHEMA_DIR)
	@bin="$$($(SWIFT) build --show-bin-path)/dynamics"; \
	for name in $$("$$bin" scenes | grep -v "(example file" | cut -d' ' -f1); do "$$bin" scenes --export $$name --items 40 > $(SCHEMA_DIR)/$$name.json || exit 1; done; \
	"$$bin" schema > .build/scene.schema.json
	@test -n "$(SCHEMA_PYTHON)" || { echo "make test-schema: no python3 with jsonschema and yaml (install python3-jsonschema python3-yaml)" >&2; exit 1; }
	$(SCHEMA_PYTHON) Tests/SceneSchema/check.py .build/scene.schema.json $(SCHEMA_DIR)/*.json Sources/DynamicsScenes/Resources/examples/*

# The C kernel on arm64 (Tests/Kernel): the checks program is built natively and for arm64; the arm64
# build runs under qemu-aarch64 and checks the NEON kernels against the scalar ones, the laws, and that
# its states have the native run's bits. Installs, when missing: qemu-user, the arm64 cross toolchain,
# and libblas-dev:arm64 through Debian multiarch (this adds the arm64 architecture to dpkg).
CLANG ?= clang
ARM64_DIR := .build/arm64
KERNEL_LEVELS = $(CLANG) -std=c11 -O2 -Werror -Wall -Wextra -D_POSIX_C_SOURCE=200809L -DDK_SELF_CHECKS -ICSources/DynamicsKernel/include \
	-ICSources/DynamicsKernel CSources/DynamicsKernel/*.c Tests/Kernel/*.c -lblas -lm -lpthread

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
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate flick --output $(BROWSER_DIR)/flick.html --quiet
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate sticky_corners --output $(BROWSER_DIR)/sticky.html --quiet
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate nine-ball-chain --seconds 4 --output $(BROWSER_DIR)/chain.html --quiet
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate alert-view --output $(BROWSER_DIR)/alert.html --quiet
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate push-by-drag --seconds 3 --output $(BROWSER_DIR)/push.html --quiet
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate balanced-square --output $(BROWSER_DIR)/balanced.html --quiet
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate line-and-arc --seconds 4 --output $(BROWSER_DIR)/arc.html --quiet
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate position-to-bounds --output $(BROWSER_DIR)/mapping.html --quiet
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate shade --output $(BROWSER_DIR)/shade.html --quiet
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate drop-out --output $(BROWSER_DIR)/drop-out.html --quiet
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate tumbler --seconds 2 --output $(BROWSER_DIR)/tumbler.html --quiet
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate paddle-wheel --seconds 3 --output $(BROWSER_DIR)/paddle.html --quiet
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate compounds --seconds 2 --output $(BROWSER_DIR)/compounds.html --quiet
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate washer --items 900 --seconds 2 --output $(BROWSER_DIR)/washer.html --quiet
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate junkyard --items 1000 --seconds 3 --output $(BROWSER_DIR)/junkyard.html --quiet
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate spinner --items 900 --seconds 2 --output $(BROWSER_DIR)/spinner.html --quiet
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate rain --items 1100 --seconds 3 --output $(BROWSER_DIR)/rain.html --quiet
	"$$($(SWIFT) build --show-bin-path)/dynamics" simulate Sources/DynamicsScenes/Resources/examples/cart-drops.json --output $(BROWSER_DIR)/carts.html --quiet
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/square.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/flick.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/sticky.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/chain.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/alert.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/push.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/balanced.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/arc.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/mapping.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/shade.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/drop-out.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/tumbler.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/paddle.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/compounds.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/washer.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/junkyard.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/spinner.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/rain.html
	python3 Tests/Browser/check_playback.py $(BROWSER_DIR)/carts.html

# Debian's Slurm and munge for `make test-slurm`, installed when missing.
slurm-deps:
	@if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || \
		! command -v munged >/dev/null; then \
		echo "Installing slurmctld slurmd slurm-client munge (apt-get update first)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq slurmctld slurmd slurm-client munge >/dev/null; \
	fi

# The README's Slurm recipe on a single-node cluster started on this machine by Tests/Slurm/run.sh (munged,
# slurmctld and slurmd by hand, stopped by their PIDs), running the `make dist` archive's binary.
test-slurm: slurm-deps dist
	$(SUDO) bash Tests/Slurm/run.sh "$$(ls -t $(DIST_DIR)/dynamics-*-linux-$(DIST_ARCH).tar.gz | head -n 1)"

# The test suite under AddressSanitizer, with UBSan on the C kernel (Swift has no UBSan on Linux); any
# report fails the run. Separate build folders keep the sanitized builds apart from the plain one.
test-asan: deps schema-deps
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		$(SWIFT) test --disable-xctest --sanitize=address -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined \
		--scratch-path .build-asan

# The test suite under ThreadSanitizer, then the command line's scenes at 2, 4 and 8 workers.
TSAN_SCENES := default pile pyramid joint_grid chain bridge fields smash tumbler compounds washer junkyard spinner rain

test-tsan: deps schema-deps
	TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --disable-xctest --sanitize=thread --scratch-path .build-tsan
	@bin="$$($(SWIFT) build --sanitize=thread --scratch-path .build-tsan --show-bin-path)/dynamics"; \
	for workers in 2 4 8; do for scene in $(TSAN_SCENES); do \
		echo "tsan: $$scene at $$workers workers"; \
		TSAN_OPTIONS=halt_on_error=1 "$$bin" simulate $$scene --items 400 --seconds 0.5 --workers $$workers --quiet || exit 1; \
	done; done

# libFuzzer on the scene reader and the worlds it builds, and on programs of batch-API calls (Tests/Fuzz),
# for FUZZ_SECONDS (default 600), starting from the committed corpus (copied, so that new inputs stay in the
# build folder). A crash leaves its input in .build-fuzz/ and fails the target.
FUZZ_SECONDS ?= 600

fuzz: deps
	$(SWIFT) build --product SceneFuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -parse-as-library \
		--scratch-path .build-fuzz
	@mkdir -p .build-fuzz/corpus && cp Tests/Fuzz/corpus/* .build-fuzz/corpus/
	"$$($(SWIFT) build --scratch-path .build-fuzz --show-bin-path)/SceneFuzzer" .build-fuzz/corpus -artifact_prefix=.build-fuzz/ \
		-max_total_time=$(FUZZ_SECONDS) -max_len=4096 -rss_limit_mb=2048 -print_final_stats=1

# The DocC documentation of both libraries (swift-docc-plugin), warnings as errors.
docs: deps
	$(SWIFT) package --disable-sandbox generate-documentation --target Dynamics --warnings-as-errors
	$(SWIFT) package --disable-sandbox generate-documentation --target DynamicsScenes --warnings-as-errors

bench: deps
	cd Benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark

clean:
	rm -rf .build Benchmarks/.build
