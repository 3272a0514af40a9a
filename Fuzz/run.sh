#!/usr/bin/env bash
# Builds canopy-fuzz with libFuzzer and AddressSanitizer and fuzzes one target.
#
#   Fuzz/run.sh [parse|selector] [SECONDS]      (defaults: parse, 600)
#
# Extra arguments after SECONDS go to libFuzzer (e.g. -jobs=2, -only_ascii=1). The working
# corpus grows in Fuzz/corpus/TARGET (not versioned); crashes, timeouts and OOMs land in
# Fuzz/artifacts/TARGET. Replay one with a plain build:
#   swift run canopy-fuzz TARGET Fuzz/artifacts/TARGET/crash-…
# and, once fixed, keep it in Tests/FuzzCorpus/TARGET/ (FuzzCorpusTests replays that folder).
set -euo pipefail

target=${1:-parse}
seconds=${2:-600}
shift $(( $# > 2 ? 2 : $# ))
case "$target" in
    parse) max_len=65536 ;;
    selector) max_len=4096 ;;
    *) echo "usage: Fuzz/run.sh [parse|selector] [SECONDS] [libFuzzer options...]" >&2; exit 2 ;;
esac

cd "$(dirname "$0")/.."
# A separate scratch path: the sanitized build must not mix with the normal one.
nice -n 10 swift build -c release --product canopy-fuzz --scratch-path .build-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
binary=$(swift build -c release --product canopy-fuzz --scratch-path .build-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --show-bin-path)/canopy-fuzz

corpus=Fuzz/corpus/$target
artifacts=Fuzz/artifacts/$target
mkdir -p "$corpus" "$artifacts"

# Seeds: a few pages/selectors, and every input that once found a bug (read-only seed folders;
# new inputs go to $corpus only).
export CANOPY_FUZZ_TARGET=$target
export ASAN_OPTIONS=${ASAN_OPTIONS:-}
exec nice -n 10 "$binary" "$corpus" "Fuzz/seeds/$target" "Tests/FuzzCorpus/$target" \
    -dict="Fuzz/$target.dict" \
    -max_len=$max_len -timeout=10 -rss_limit_mb=2048 -max_total_time="$seconds" \
    -artifact_prefix="$artifacts/" -print_final_stats=1 "$@"
