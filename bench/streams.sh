#!/usr/bin/env bash
# Streaming pipeline benchmark, in one JVM on an embedded single-node Kafka (io.siteflow.bench.StreamsBench):
#   throughput: (b) the siteflow topology (exactly_once_v2, as `siteflow process` runs it) processes WARMUP
#               records, then ROUNDS rounds of N more, each put on the topic while it is paused and timed from
#               its resume until the verdicts hold them all (no producer running meanwhile, as for the bare
#               consumer); (a) a bare KafkaConsumer reads and parses the same records with FlowRecordJson, timed
#               per round; ratio of the medians (b)/(a)
#   latency:    RATE records/s for SECONDS; export (producer send) -> the cumulative verdict of the record's
#               pair includes it (polled every 25 ms through StreamsQueries, as GET /api/verdicts; a query costs ~12 ms); p50/p99/max
# Prints a Markdown table. Environment: N (1000000 records per timed round; the bare consumer reads 200,000 records in under a second, too short to time steadily), WARMUP (200000, records processed before the first round), ROUNDS (3; the result is the median round),
# RATE (10000), DURATION (30, seconds), STREAMS_KAFKA (Kafka Streams properties, "k=v k=v", as --kafka),
# JAVA_OPTS (extra JVM options, e.g. a JFR recording for a profile),
# ISOLATION (none: the product's topology, the model without an isolation: block; policy: the same with a 20-rule
# isolation policy, StreamsBench.POLICY_20; off: the topology without the isolation stage — compare off with policy
# for the stage's cost, docs/BENCHMARKS.md "The isolation stage"), WHATIF (on: the product's what-if stage; off:
# the topology without it — docs/BENCHMARKS.md "What-if stores"),
# BOOTSTRAP (host:port of a broker in its own process, e.g. `siteflow broker --port 19092 --data-dir <fresh dir>`,
# instead of one embedded in the benchmark's JVM; give it a fresh data directory for every run).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
N="${N:-1000000}"
RATE="${RATE:-10000}"
DURATION="${DURATION:-30}"
# build when the jars are missing or older than any main source they are made of
. "$ROOT/bench/bench-jars.sh"
bench_jars streams
OUT="$(mktemp)"
LOG="$(mktemp)"
trap 'rm -f "$OUT" "$LOG"' EXIT
echo "streams: N=$N ROUNDS=${ROUNDS:-3} RATE=$RATE DURATION=$DURATION; progress below, broker and Streams log hidden" >&2
set +e
# shellcheck disable=SC2086
java -Xmx2g ${JAVA_OPTS:-} -cp "$BENCH_JAR:$ROOT/bench/target/lib/*" io.siteflow.bench.StreamsBench "$N" "$RATE" "$DURATION" "$OUT" 2>&1 \
  | tee "$LOG" | { grep --line-buffered '^streams-bench:' >&2 || true; }
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ]; then
  tail -40 "$LOG" >&2
  exit 1
fi
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC')"
cat "$OUT"
