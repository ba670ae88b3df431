# Set-up and entry points. `make test` is the README's test command and what CI runs.
SWIFT ?= swift
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

.PHONY: deps build run test bench clean

# Debian's reference BLAS (cblas symbols live in libblas.so.3); installed only when missing.
deps:
	@if ! dpkg -s libblas-dev >/dev/null 2>&1; then \
		echo "Installing libblas-dev (apt-get update first)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libblas-dev; \
	fi

build: deps
	$(SWIFT) build -c release --product dynamics

run: build
	"$$($(SWIFT) build -c release --show-bin-path)/dynamics" simulate

test: deps
	$(SWIFT) test --disable-xctest

bench: deps
	cd Benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark

clean:
	rm -rf .build Benchmarks/.build
