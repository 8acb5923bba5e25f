#!/usr/bin/env bash
# Install the build tree into a scratch prefix, then build tests/consumer against it twice:
# through find_package(pinet) and through pkg-config. Args: BUILD_DIR WORK_DIR CONSUMER_SRC.
set -euo pipefail
build=$1 work=$2 src=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
export LD_LIBRARY_PATH="$work/prefix/lib:$work/prefix/lib64:${LD_LIBRARY_PATH:-}"
"$work/build/consumer_cmake"
pcdir=$(dirname "$(find "$work/prefix" -name pinet.pc | head -n 1)")
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror -o "$work/consumer_pc" "$src/consumer.c" \
  $(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs --static pinet)
"$work/consumer_pc"
