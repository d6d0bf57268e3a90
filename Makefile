# `make` builds the release engine and copies it to $(EXE), as engine-testing
# frameworks (`make EXE=name`) expect.
EXE ?= engine

.PHONY: all test clean

all:
	cargo build --release
	cp target/release/engine $(EXE)

test:
	cargo test --workspace

clean:
	cargo clean
