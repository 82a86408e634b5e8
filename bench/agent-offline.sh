#!/usr/bin/env bash
# Offline benchmark of the capture agent against reference tools, in one run on one file:
#   (a) siteflow capture -r F --json > /dev/null   (the agent, JVM start included; median of RUNS)
#   (a') siteflow capture -r F --text > /dev/null   (the text report instead of JSON lines)
#   (b) tcpdump -r F -w /dev/null                   (median of RUNS)
#   (c) pmacctd, print plugin, 5-tuple aggregation  (once; its fixed 2 s start-up sleep is subtracted)
#   (d) siteflow capture -r F --bootstrap B          (records to an embedded broker started by this script, the
#       `siteflow broker` of a fresh data directory; its own row; SKIP_KAFKA=1 leaves it out)
# The capture (>= 5 M packets, >= 100 k flows) is generated once by io.siteflow.bench.GenerateCapture and
# reused from $SITEFLOW_BENCH_DIR (default /tmp/siteflow-bench). Prints a Markdown table with ratios.
# Environment: PACKETS (5500000), SEED (1), RUNS (3), SITEFLOW_BENCH_DIR, SKIP_PMACCT=1, SKIP_KAFKA=1,
# STAGES=1 (per-stage costs).
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
# median_of N CMD...: runs CMD N times (output to /dev/null); prints "WALL_NS CPU_NS", the median of each
# (CPU = user + system of the process and its threads and children, from bash's `time`: less disturbed by
# other load on a shared machine than wall time). The sum is printed with "%.0f": mawk's "%d" clamps at
# 2^31-1, which once made every CPU figure 2.147 s.
median_of() {
  local n=$1 walls=() cpus=() t0 t1
  shift
  for _ in $(seq "$n"); do
    t0=$(now_ns)
    cpus+=("$( { TIMEFORMAT='%3U %3S'; time "$@" >/dev/null 2>&1; } 2>&1 | awk '{ printf "%.0f", ($1 + $2) * 1e9 }')")
    t1=$(now_ns)
    walls+=("$((t1 - t0))")
  done
  echo "$(median "${walls[@]}") $(median "${cpus[@]}")"
}
# median V...: the middle value (the lower middle of an even count)
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
agent() { "$ROOT/siteflow" capture -r "$FILE" --json; }
agent_text() { "$ROOT/siteflow" capture -r "$FILE" --text; }
agent_tiny() { "$ROOT/siteflow" capture -r "$DIR/tiny.pcap" --json; }
tcpdump_read() { tcpdump -r "$FILE" -w /dev/null; }

# Facts about the file, from the agent's own summary.
SUMMARY=$("$ROOT/siteflow" capture -r "$FILE" --json 2>&1 >/dev/null)
NPKT=$(echo "$SUMMARY" | sed -n 's/.*: \([0-9]*\) packets received.*/\1/p')
NFLOWS=$(echo "$SUMMARY" | sed -n 's/.*; \([0-9]*\) flows, .*/\1/p')
[ -n "$NPKT" ] && [ "$NPKT" -gt 0 ] || die "could not read the packet count from: $SUMMARY"
tcpdump -r "$FILE" -c 1 -w "$DIR/tiny.pcap" 2>/dev/null

echo "agent-offline: $FILE: $NPKT packets, $NFLOWS flows, $(($(stat -c %s "$FILE") >> 20)) MiB; $RUNS runs each" >&2
read -r T_TCPDUMP C_TCPDUMP <<<"$(median_of "$RUNS" tcpdump_read)"
read -r T_AGENT C_AGENT <<<"$(median_of "$RUNS" agent)"
read -r T_TEXT C_TEXT <<<"$(median_of "$RUNS" agent_text)"
read -r T_START C_START <<<"$(median_of "$RUNS" agent_tiny)"

T_KAFKA=""
if [ -z "${SKIP_KAFKA:-}" ]; then
  KDIR="$DIR/kafka-$$"
  rm -rf "$KDIR"
  mkdir -p "$KDIR"
  "$ROOT/siteflow" broker --data-dir "$KDIR/data" > "$KDIR/out" 2> "$KDIR/err" &
  BROKER_PID=$!
  # set -e holds in traps too: a broker already stopped must not turn the script's exit status into 1
  trap 'kill "$BROKER_PID" 2>/dev/null || true; wait "$BROKER_PID" 2>/dev/null || true; rm -rf "$KDIR"' EXIT
  for _ in $(seq 240); do
    [ -s "$KDIR/out" ] && break
    kill -0 "$BROKER_PID" 2>/dev/null || die "siteflow broker ended: $(tail -3 "$KDIR/err")"
    sleep 0.5
  done
  BOOTSTRAP=$(head -n 1 "$KDIR/out")
  [ -n "$BOOTSTRAP" ] || die "siteflow broker printed no address within 120 s"
  agent_kafka() { "$ROOT/siteflow" capture -r "$FILE" --bootstrap "$BOOTSTRAP" --agent bench --spool-dir "$KDIR/spool"; }
  read -r T_KAFKA C_KAFKA <<<"$(median_of "$RUNS" agent_kafka)"
  kill "$BROKER_PID"
  wait "$BROKER_PID" 2>/dev/null || true
fi

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
  read -r T_PMACCT C_PMACCT <<<"$(median_of 1 pmacctd -f "$DIR/pmacctd.conf")"
  T_PMACCT=$((T_PMACCT - PMACCT_SLEEP_S * 1000000000))
  PM_PACKETS=$(awk -F, 'NR > 1 { p += $6 } END { print p + 0 }' "$DIR/pmacct.csv" 2>/dev/null || echo 0)
fi

# row NAME COMMAND WALL_NS CPU_NS: one table row; ratios against tcpdump's packet rate (wall and CPU).
row() {
  awk -v name="$1" -v cmd="$2" -v ns="$3" -v cpu="$4" -v n="$NPKT" -v ref="$T_TCPDUMP" -v cref="$C_TCPDUMP" 'BEGIN {
    printf "| %s | `%s` | %.2f | %.2f M | **%.2f** | %.2f | %.2f |\n", name, cmd, ns / 1e9, n / (ns / 1e9) / 1e6,
      ref / ns, cpu / 1e9, cref / cpu }'
}
echo
echo "File: $NPKT packets, $NFLOWS flows (siteflow's count), $(($(stat -c %s "$FILE") >> 20)) MiB, in the page cache; $(nproc) cores; $(date -u +%Y-%m-%dT%H:%MZ)."
echo
echo "| tool | command | wall s | packets/s | ratio to tcpdump (wall) | CPU s | ratio (CPU) |"
echo "|---|---|---|---|---|---|---|"
row "tcpdump (median of $RUNS)" "tcpdump -r F -w /dev/null" "$T_TCPDUMP" "$C_TCPDUMP"
row "siteflow agent (median of $RUNS)" "siteflow capture -r F --json > /dev/null" "$T_AGENT" "$C_AGENT"
row "siteflow agent, text report (median of $RUNS)" "siteflow capture -r F --text > /dev/null" "$T_TEXT" "$C_TEXT"
row "siteflow agent minus JVM start-up ($((T_START / 1000000)) ms)" "same, minus a 1-packet run" \
  "$((T_AGENT - T_START))" "$((C_AGENT - C_START))"
if [ -n "$T_KAFKA" ]; then
  row "siteflow agent to Kafka (median of $RUNS; the broker's CPU not counted)" \
    "siteflow capture -r F --bootstrap B (embedded broker)" "$T_KAFKA" "$C_KAFKA"
fi
if [ -n "$T_PMACCT" ]; then
  row "pmacctd (1 run, minus its 2 s sleep)" "pmacctd -f pmacctd.conf (print, 5-tuple)" "$T_PMACCT" "$C_PMACCT"
  echo
  echo "pmacctd counted $PM_PACKETS packets (of $NPKT)."
fi
if [ -n "${STAGES:-}" ]; then
  echo
  echo "Per-stage CPU cost inside one JVM (io.siteflow.bench.PipelineStages; reader buffer 8 MiB = current default):"
  echo '```'
  java -XX:+UseParallelGC -cp "$BENCH_JAR:$ROOT/bench/target/lib/*" io.siteflow.bench.PipelineStages "$FILE" 2 8192,1024 2>/dev/null \
    | grep '^round 1'
  echo '```'
fi
