#!/usr/bin/env bash
# Runs every package's tests in this repository: the README's test command, and what CI runs.
#   1. EndpointKit: the library alone with warnings as errors, then its tests;
#   2. the same tests under Thread Sanitizer;
#   3. the DocC documentation, warnings as errors;
#   4. each other package in the repository: its tests (the OpenAPI package's build a client
#      with swift-openapi-generator's plugin; the example's include every code sample of
#      README.md and Documentation/, compiled), and all but the example's under Thread
#      Sanitizer too (swift-otel, which the example's tests use, does not compile with it);
#   5. a build of the benchmarks, each row of their tables run for a moment, and the README's
#      example command.
# Needs only the Swift toolchain and the packages it names; no network beyond them.
#
# Every package builds into one folder, the core's `.build` (`.build-tsan` under Thread
# Sanitizer): they share SwiftNIO and most other dependencies, which are then compiled once
# instead of once a package (on a clean clone that took a third of the run).
set -euo pipefail
cd "$(dirname "$0")/.."
shared="$PWD/.build"
shared_tsan="$PWD/.build-tsan"
# Every step plans its build afresh. With the plan cached in a shared folder, a step could
# reuse the one before it: warm, each package's step under Thread Sanitizer reported "Build
# complete" and ran the core's tests instead of its own (SwiftPM 6.3). Planning costs seconds.
fresh=--disable-build-manifest-caching

# Each step's header says how long the run has taken so far (minutes:seconds): where CI's time
# goes, read from its log.
step() { printf '\n== %s (at %d:%02d)\n' "$*" $((SECONDS / 60)) $((SECONDS % 60)); }

# Runs a test command under Thread Sanitizer. When it fails, TSan's reports are printed again
# at the end, so that the last lines of a CI log (often all that is kept) show the race.
sanitized() {
  local log status=0
  log=$(mktemp)
  "$@" 2>&1 | tee "$log" || status=$?
  if [ "$status" -ne 0 ]; then
    printf '\n== Thread Sanitizer reports of the run above (exit %s)\n' "$status"
    awk '/^WARNING: ThreadSanitizer/,/^SUMMARY: ThreadSanitizer/' "$log"
  fi
  rm -f "$log"
  return "$status"
}

# A known false positive of the Swift runtime under Thread Sanitizer; see the file.
suppressions=Scripts/tsan-suppressions.txt
# TSan reads `$` as the end of a name, so a template that starts with it would match nothing.
if grep -n '^[a-z_]*:\$' "$suppressions"; then
  echo "$suppressions: write a symbol without its leading \$ (that template matches nothing)" >&2
  exit 1
fi
export TSAN_OPTIONS="suppressions=$PWD/$suppressions${TSAN_OPTIONS:+ $TSAN_OPTIONS}"

# Foundation on Linux keeps HTTPCookieStorage.shared in a file for each program's folder (every
# debug build shares ~/.local/share/debug/.cookies.shared): a cookie a test left there would go
# out with later programs' requests to that host, whatever the port. Lists what the files hold
# (domain and name, never a value), so that the run can show it added nothing.
cookies_kept() {
  python3 - <<'PY'
import glob, os, plistlib
home = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
for path in sorted(glob.glob(os.path.join(home, "*", ".cookies.*"))):
    try:
        with open(path, "rb") as file:
            names = plistlib.load(file)
    except Exception:
        continue
    for name in sorted(names):
        print(f"{path}: {name}")
PY
}
cookies_before=$(mktemp)
cookies_kept >"$cookies_before"

step "EndpointKit: library build, warnings as errors"
swift build $fresh --target EndpointKit -Xswiftc -warnings-as-errors
swift build $fresh --target EndpointKitTesting -Xswiftc -warnings-as-errors

step "EndpointKit: tests"
swift test $fresh

step "EndpointKit: tests under Thread Sanitizer"
sanitized swift test $fresh --sanitize=thread --scratch-path "$shared_tsan"

step "EndpointKit: documentation (DocC), warnings as errors"
./Scripts/docs.sh

step "Documentation samples: written into the example's DocumentationSnippetTests"
python3 Scripts/snippets.py

for package in EndpointKitAsyncHTTPClient EndpointKitCombine EndpointKitTelemetry EndpointKitOpenAPI Example; do
  step "$package: tests"
  swift test $fresh --package-path "$package" --scratch-path "$shared"
done

for package in EndpointKitAsyncHTTPClient EndpointKitTelemetry EndpointKitCombine EndpointKitOpenAPI; do
  step "$package: tests under Thread Sanitizer"
  sanitized swift test $fresh --package-path "$package" --sanitize=thread --scratch-path "$shared_tsan"
done

step "Benchmarks: build (run them with: swift run -c release --package-path Benchmarks Bench)"
swift build $fresh --package-path Benchmarks --scratch-path "$shared"

# Not a measurement (a debug build, a moment a row): that no row of the tables stops the run,
# as a row reading a 1 MiB body as JSON once did. The tables are printed only if it fails.
step "Benchmarks: every row of the latency, OpenAPI and pipeline tables runs (Bench smoke)"
smoke=$(mktemp)
swift run $fresh --package-path Benchmarks --scratch-path "$shared" Bench smoke >"$smoke" 2>&1 || { cat "$smoke"; exit 1; }
rm -f "$smoke"

step "Example: the README's example command (in the shared build folder)"
swift run $fresh --package-path Example --scratch-path "$shared" book-demo

step "No cookie left in Foundation's shared cookie storage by the run"
left=$(cookies_kept | grep -vxF -f "$cookies_before" || true)
rm -f "$cookies_before"
if [ -n "$left" ]; then
  printf 'Cookies the run left, which later programs would send:\n%s\n' "$left" >&2
  exit 1
fi

step "All passed"
