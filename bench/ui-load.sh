#!/bin/bash
# Dashboard load benchmark: the API server with synthetic data (SyntheticQueries: SERVERS audited servers,
# PAIRS host pairs, an hour of one-minute windows) and headless Debian Chromium (Selenium, the Debian
# chromedriver; nothing is downloaded). Prints navigation timing and the page's own "siteflow-rendered" mark,
# median and max over RUNS loads after a warm-up, then the size and time of the main API answers.
# The screenshot of the loaded page goes to stream-processor/target/screenshots/ui-load-SERVERS.png.
#
# usage: bench/ui-load.sh [SERVERS [PAIRS [RUNS]]]        (defaults 500 10000 7)
# needs: java 17, maven, Debian packages chromium and chromium-driver
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
cd "$ROOT"
mvn -B -q -pl stream-processor -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$WORK/cp" >/dev/null
CP=$ROOT/stream-processor/target/test-classes:$ROOT/stream-processor/target/classes:$(cat "$WORK/cp")
cd "$ROOT/stream-processor"
exec java -cp "$CP" io.siteflow.processor.http.UiLoadBenchmark "${1:-500}" "${2:-10000}" "${3:-7}"
