#!/usr/bin/env bash
# Counts the CPU instructions of one small GET, in user space, with each contender of
# Benchmarks/Sources/Instructions (raw AsyncHTTPClient's async API, its delegate API,
# AsyncHTTPClientClient), against a server out of this process (Scripts/bench-nginx.sh):
#   Scripts/bench-nginx.sh &
#   Scripts/bench-instructions.sh [http://127.0.0.1:8089]
# Each contender runs twice under callgrind, N and 3N calls after the same warm-up (N=2000, or
# CALLS=N); a request's instructions are the difference over 2N. Unlike a time, the count
# hardly moves from run to run on a busy host (within about 1 %: how reads and wake-ups fall).
# What it does not see: the kernel's work (system calls, threads woken), which a timed row
# (`Bench paired`) includes.
# CALLGRIND_FILES=DIR keeps the profiles, for `callgrind_annotate` (per function, self cost).
# CONTENDERS="openapi-official openapi-client" counts a generated OpenAPI client on each
# transport instead (the first contender named is the one the others are compared with).
# CONTENDERS=pipeline counts EndpointKit's own steps of a call, over a transport that answers at
# once: no I/O, so the count repeats to the instruction (20,397 and 20,398 in two runs of one build).
# DEFAULT_FIELDS=1 has that call's base adapter add two header fields, as a service's often does.
# `raw-fields` is `raw` sending the two header fields the client adds (the same exchange).
# IN_FLIGHT=N makes the calls from N tasks side by side, as a server does: the event loops then
# read several answers a wake-up, and a call's code is evicted by the others' (see CACHE_SIM).
# How the answers fall into wake-ups varies: such a count moves by about 2 % from run to run.
set -euo pipefail
cd "$(dirname "$0")/.."
url=${1:-http://127.0.0.1:8089}
calls=${CALLS:-2000}
command -v valgrind >/dev/null || { echo "needs valgrind: apt-get install -y valgrind" >&2; exit 1; }
# Valgrind 3.19 cannot read the DWARF 5 the toolchain writes by default.
scratch=Benchmarks/.build-instructions
# Without manifest caching: a cached build plan misses a change to a path dependency's
# Package.swift (its flags, say), and would count the build before it.
swift build -c release --package-path Benchmarks --scratch-path "$scratch" --product Instructions \
  --disable-build-manifest-caching -Xswiftc -dwarf-version=4 -Xcc -gdwarf-4 >"${TMPDIR:-/tmp}/bench-instructions.log" 2>&1 ||
  { cat "${TMPDIR:-/tmp}/bench-instructions.log"; exit 1; }
binary="$scratch/release/Instructions"
# A server that does not answer fails here, with the program's own words, not as a count missing.
"$binary" client 1 "$url" || { echo "no answer from $url/json: is Scripts/bench-nginx.sh running?" >&2; exit 1; }
files=${CALLGRIND_FILES:-$(mktemp -d)}
mkdir -p "$files"
# CACHE_SIM=1 also simulates this machine's caches per core (32 KiB L1 for code and data, the
# 1 MiB L2 as the last level) and prints the misses of the code cache a call: on a 2-core host
# they, not the instructions, track the CPU time a request takes at 16 in flight (see
# Documentation/ServerClient.md); with them the data cache's misses and the last level's.
sim=()
[ -z "${CACHE_SIM:-}" ] || sim=(--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=1048576,16,64)
count() {  # contender calls -> the run's instructions and code-cache misses (0 without CACHE_SIM)
  # --fair-sched: without it, a thread waiting for another under Valgrind's one lock can stall.
  valgrind --tool=callgrind --fair-sched=yes "${sim[@]}" --callgrind-out-file="$files/$1.$2.out" \
    "$binary" "$1" "$2" "$url" >/dev/null 2>&1
  awk '/^summary:/ { print $2, ($5 == "" ? 0 : $5), ($6 == "" ? 0 : $6 + $7), ($9 == "" ? 0 : $9 + $10) }' "$files/$1.$2.out"
}
set -- ${CONTENDERS:-raw raw-delegate client}
printf '%-18s %14s %10s' contender "instructions" "vs $1"
[ -z "${CACHE_SIM:-}" ] || printf ' %12s %10s %12s %12s' "I1 misses" "vs $1" "D1 misses" "LL data"
printf '\n'
first= firstMisses=
for contender in "$@"; do
  read -r small smallMisses smallData smallLast < <(count "$contender" "$calls")
  read -r large largeMisses largeData largeLast < <(count "$contender" $((3 * calls)))
  per=$(((large - small) / (2 * calls)))
  misses=$(((largeMisses - smallMisses) / (2 * calls)))
  first=${first:-$per} firstMisses=${firstMisses:-$misses}
  printf '%-18s %14d %10s' "$contender" "$per" "$(awk -v a="$per" -v b="$first" 'BEGIN { printf "%.3f", a / b }')"
  [ -z "${CACHE_SIM:-}" ] || printf ' %12d %10s %12d %12d' "$misses" "$(awk -v a="$misses" -v b="$firstMisses" 'BEGIN { printf "%.3f", a / b }')" \
    $(((largeData - smallData) / (2 * calls))) $(((largeLast - smallLast) / (2 * calls)))
  printf '\n'
done
[ -n "${CALLGRIND_FILES:-}" ] || rm -rf "$files"
