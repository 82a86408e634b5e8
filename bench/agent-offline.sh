#!/usr/bin/env bash
# Offline benchmark of the capture agent against reference tools, in one run on one file:
#   (a) siteflow capture -r F --json > /dev/null   (the agent, JVM start included; best of RUNS)
#   (b) tcpdump -r F -w /dev/null                   (best of RUNS)
#   (c) pmacctd, print plugin, 5-tuple aggregation  (once; its fixed 2 s start-up sleep is subtracted)
# The capture (>= 5 M packets, >= 100 k flows) is generated once by io.siteflow.bench.GenerateCapture and
# reused from $SITEFLOW_BENCH_DIR (default /tmp/siteflow-bench). Prints a Markdown table with ratios.
# Environment: PACKETS (5500000), SEED (1), RUNS (3), SITEFLOW_BENCH_DIR, SKIP_PMACCT=1.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${SITEFLOW_BENCH_DIR:-/tmp/siteflow-bench}"
PACKETS="${PACKETS:-5500000}"
SEED="${SEED:-1}"
RUNS="${RUNS:-3}"
FILE="$DIR/many-flows-v1-$PACKETS-$SEED.pcap"
PMACCT_SLEEP_S=2

die() { echo "agent-offline: $*" >&2; exit 1; }
for tool in java tcpdump; do command -v "$tool" >/dev/null || die "$tool not found"; done
if [ -z "${SKIP_PMACCT:-}" ]; then
  command -v pmacctd >/dev/null || die "pmacctd not found (Debian package pmacct; or SKIP_PMACCT=1)"
fi
mkdir -p "$DIR"

# Build (the launcher builds the CLI on first use; the bench module holds the generator).
BENCH_JAR="$ROOT/bench/target/siteflow-bench-0.1.0-SNAPSHOT.jar"
if [ ! -f "$BENCH_JAR" ] || [ ! -d "$ROOT/bench/target/lib" ]; then
  echo "agent-offline: building..." >&2
  (cd "$ROOT" && mvn -B -q -DskipTests package) >&2
fi
"$ROOT/siteflow" capture --help >/dev/null 2>&1 || true

# Generate the capture once.
if [ ! -s "$FILE" ]; then
  echo "agent-offline: generating $FILE ($PACKETS packets)..." >&2
  java -cp "$BENCH_JAR:$ROOT/bench/target/lib/*" io.siteflow.bench.GenerateCapture "$FILE.tmp" "$PACKETS" "$SEED"
  mv "$FILE.tmp" "$FILE"
fi
cat "$FILE" > /dev/null   # into the page cache: every tool reads from memory

now_ns() { date +%s%N; }
# best_of N CMD...: runs CMD N times (output to /dev/null), prints the shortest wall time in ns.
best_of() {
  local n=$1 best="" t0 t1 d
  shift
  for _ in $(seq "$n"); do
    t0=$(now_ns); "$@" >/dev/null 2>&1; t1=$(now_ns)
    d=$((t1 - t0))
    if [ -z "$best" ] || [ "$d" -lt "$best" ]; then best=$d; fi
  done
  echo "$best"
}
agent() { "$ROOT/siteflow" capture -r "$FILE" --json; }
agent_tiny() { "$ROOT/siteflow" capture -r "$DIR/tiny.pcap" --json; }
tcpdump_read() { tcpdump -r "$FILE" -w /dev/null; }

# Facts about the file, from the agent's own summary.
SUMMARY=$("$ROOT/siteflow" capture -r "$FILE" --json 2>&1 >/dev/null)
NPKT=$(echo "$SUMMARY" | sed -n 's/.*: \([0-9]*\) packets received.*/\1/p')
NFLOWS=$(echo "$SUMMARY" | sed -n 's/.*; \([0-9]*\) flows, .*/\1/p')
[ -n "$NPKT" ] && [ "$NPKT" -gt 0 ] || die "could not read the packet count from: $SUMMARY"
tcpdump -r "$FILE" -c 1 -w "$DIR/tiny.pcap" 2>/dev/null

echo "agent-offline: $FILE: $NPKT packets, $NFLOWS flows, $(($(stat -c %s "$FILE") >> 20)) MiB; $RUNS runs each" >&2
T_TCPDUMP=$(best_of "$RUNS" tcpdump_read)
T_AGENT=$(best_of "$RUNS" agent)
T_START=$(best_of "$RUNS" agent_tiny)

T_PMACCT=""
PM_PACKETS=""
if [ -z "${SKIP_PMACCT:-}" ]; then
  cat > "$DIR/pmacctd.conf" <<CONF
daemonize: false
pcap_savefile: $FILE
aggregate: src_host, dst_host, src_port, dst_port, proto
plugins: print
print_output: csv
print_output_file: $DIR/pmacct.csv
print_refresh_time: 86400
print_cache_entries: 400009
plugin_pipe_size: 1048576000
plugin_buffer_size: 10485760
CONF
  rm -f "$DIR/pmacct.csv"
  t0=$(now_ns); pmacctd -f "$DIR/pmacctd.conf" >"$DIR/pmacctd.log" 2>&1; t1=$(now_ns)
  T_PMACCT=$((t1 - t0 - PMACCT_SLEEP_S * 1000000000))
  PM_PACKETS=$(awk -F, 'NR > 1 { p += $6 } END { print p + 0 }' "$DIR/pmacct.csv" 2>/dev/null || echo 0)
fi

# row NAME COMMAND NANOS: one table row; ratio against tcpdump's packet rate.
row() {
  awk -v name="$1" -v cmd="$2" -v ns="$3" -v n="$NPKT" -v ref="$T_TCPDUMP" 'BEGIN {
    printf "| %s | `%s` | %.2f | %.2f M | %.2f |\n", name, cmd, ns / 1e9, n / (ns / 1e9) / 1e6, ref / ns }'
}
echo
echo "File: $NPKT packets, $NFLOWS flows (siteflow's count), $(($(stat -c %s "$FILE") >> 20)) MiB, in the page cache; $(nproc) cores; $(date -u +%Y-%m-%dT%H:%MZ)."
echo
echo "| tool | command | wall s | packets/s | ratio to tcpdump |"
echo "|---|---|---|---|---|"
row "tcpdump (best of $RUNS)" "tcpdump -r F -w /dev/null" "$T_TCPDUMP"
row "siteflow agent (best of $RUNS)" "siteflow capture -r F --json > /dev/null" "$T_AGENT"
row "siteflow agent minus JVM start-up ($((T_START / 1000000)) ms)" "same, minus a 1-packet run" "$((T_AGENT - T_START))"
if [ -n "$T_PMACCT" ]; then
  row "pmacctd (1 run, minus its 2 s sleep)" "pmacctd -f pmacctd.conf (print, 5-tuple)" "$T_PMACCT"
  echo
  echo "pmacctd counted $PM_PACKETS packets (of $NPKT)."
fi
