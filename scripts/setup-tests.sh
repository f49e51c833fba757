#!/usr/bin/env bash
# Installs what scripts/test.sh needs beyond scripts/setup.sh (the pinned nightly); idempotent:
# clippy, and the system's Open MPI with libclang for the MPI example (examples/mpi-jacobi).
set -euo pipefail
# Clippy on the stable toolchain: test.sh checks that it reports nothing on acc's expansions.
if ! cargo clippy --version >/dev/null 2>&1; then
  rustup component add clippy
fi
# The MPI example builds the `mpi` crate against the system's Open MPI, with libclang for its
# bindings: Debian's packages, installed where apt can (root or sudo).
if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1 || ! ls /usr/lib/llvm-*/lib/libclang*.so* >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends libopenmpi-dev openmpi-bin libclang-dev
  else
    echo "setup-tests: install Open MPI (mpicc, mpirun) and libclang for examples/mpi-jacobi" >&2
  fi
fi
