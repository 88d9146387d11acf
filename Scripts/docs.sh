#!/usr/bin/env bash
# Builds the DocC documentation of the EndpointKit library into .build/docs (a static site),
# and fails on any DocC warning. The articles are the pages of Documentation/ (the catalog
# links to them), so there is one copy of each.
set -euo pipefail
cd "$(dirname "$0")/.."
# The library's public symbols only (the testing product and SPI are not documented here).
swift package dump-symbol-graph --minimum-access-level public >/dev/null
symbols=.build/symbol-graphs
rm -rf "$symbols" && mkdir -p "$symbols"
cp "$(swift build --show-bin-path)"/../symbolgraph/EndpointKit{,@*}.symbols.json "$symbols"/
docc convert Sources/EndpointKit/EndpointKit.docc \
    --additional-symbol-graph-dir "$symbols" \
    --fallback-display-name EndpointKit --fallback-bundle-identifier org.endpointkit.EndpointKit \
    --output-path .build/docs --warnings-as-errors "$@"
echo "Documentation built in .build/docs (serve it with: python3 -m http.server -d .build/docs)"
