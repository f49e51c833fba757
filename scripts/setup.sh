#!/usr/bin/env bash
# Installs what a GPU build of acc needs on a fresh machine (what scripts/example.sh runs);
# idempotent. The host crates build on stable; the device code (PTX) needs the pinned nightly
# with rust-src and llvm-tools. What the tests need beyond it: scripts/setup-tests.sh.
set -euo pipefail
NIGHTLY=nightly-2026-05-20
if ! rustup run "$NIGHTLY" rustc --version >/dev/null 2>&1 \
   || ! rustup component list --toolchain "$NIGHTLY" --installed 2>/dev/null | grep -q '^rust-src' \
   || ! rustup component list --toolchain "$NIGHTLY" --installed 2>/dev/null | grep -q '^llvm-tools'; then
  rustup toolchain install "$NIGHTLY" --profile minimal -c rust-src -c llvm-tools
fi
