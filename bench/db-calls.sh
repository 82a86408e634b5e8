#!/usr/bin/env bash
# DB call timing on vs off: the agent's offline packet rate on a DB-heavy capture, in one JVM, both settings
# alternating (io.siteflow.bench.DbCallTimingBench; best of RUNS rounds each after a warm-up round).
# The capture is the synthetic stretched cluster seen on wls3's host (Oracle Net pools, SQL round trips with a
# 3 ms service time, plus T3, JMS, Coherence and DNS), DURATION seconds long, generated once into
# $SITEFLOW_BENCH_DIR (default /tmp/siteflow-bench) by io.siteflow.bench.GenerateDbCapture.
# Environment: DURATION (600), RUNS (5), SITEFLOW_BENCH_DIR. Prints a Markdown table and the ratio on/off
# for docs/BENCHMARKS.md. Run it on a quiet machine: the ratio is what counts, not the absolute rates.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${SITEFLOW_BENCH_DIR:-/tmp/siteflow-bench}"
DURATION="${DURATION:-600}"
RUNS="${RUNS:-5}"
FILE="$DIR/db-calls-v1-$DURATION.pcap"

die() { echo "db-calls: $*" >&2; exit 1; }
command -v java >/dev/null || die "java not found"
mkdir -p "$DIR"

BENCH_JAR="$ROOT/bench/target/siteflow-bench-0.1.0-SNAPSHOT.jar"
if [ ! -f "$BENCH_JAR" ] || [ ! -d "$ROOT/bench/target/lib" ]; then
  echo "db-calls: building..." >&2
  (cd "$ROOT" && mvn -B -q -DskipTests package) >&2
fi
CP="$BENCH_JAR:$ROOT/bench/target/lib/*"

if [ ! -s "$FILE" ]; then
  echo "db-calls: generating $FILE ($DURATION s of traffic)..." >&2
  java -cp "$CP" io.siteflow.bench.GenerateDbCapture "$FILE.tmp" "$DURATION"
  mv "$FILE.tmp" "$FILE"
fi
cat "$FILE" > /dev/null   # into the page cache

echo "db-calls: $FILE, $(($(stat -c %s "$FILE") >> 20)) MiB, best of $RUNS rounds each" >&2
java -cp "$CP" io.siteflow.bench.DbCallTimingBench "$FILE" "$RUNS"
