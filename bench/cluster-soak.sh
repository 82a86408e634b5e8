#!/usr/bin/env bash
# Cluster soak (issue 13, docs/BENCHMARKS.md "Cluster soak"): three `siteflow broker` nodes (KRaft, combined roles,
# on loopback), the siteflow topics with replication 3 and min.insync.replicas=2 (checked with `siteflow topics
# check`), two `siteflow process` instances, and a load generator (io.siteflow.bench.soak.SoakLoad) that stands for
# N agents: distinct agent ids and servers, flow records keyed by server on siteflow.flows and a heartbeat per
# agent every 10 s on siteflow.agents, with the agent's producer settings, paced to R records/s in total.
# It reads the cumulative verdicts (GET /api/verdicts of processor 1, which answers for both) POLL_MS apart and
# prints: records produced (acknowledged), records counted in the verdicts (must be equal), the lag from send() to
# the first reading that counts a record (p50/p99 per 10-s interval), each processor's heap and RSS at the start,
# after the warm-up and at the end, GC pauses (-Xlog:gc), CPU of every process. It writes the series as CSV and a
# PNG plot of lag and memory (Java2D, io.siteflow.bench.soak.SoakPlot; no gnuplot needed).
#
# usage: bench/cluster-soak.sh [--agents N] [--rate R] [--duration D] [--producers P] [--warmup D] [--out DIR]
#   --agents N     agents simulated (default 200)
#   --rate R       flow records per second, all agents together (default 20000)
#   --duration D   how long the load runs: 600, 60s, 10m, 1h (default 10m)
#   --producers P  Kafka producer clients the agents share (default: one per agent, as in production)
#   --warmup D     the "after warm-up" sample (default: 60 s, at most half the duration)
#   --out DIR      where soak.csv, soak.png, report.md and the logs go (default bench/target/cluster-soak)
# Environment: BROKER_HEAP (1g), PROCESSOR_HEAP (1g: -Xms and -Xmx, as the deployed units' SITEFLOW_HEAP), POLL_MS (500: the pause between two verdict readings),
# SETTLE (120s: how long the verdicts may take to count everything after the load), PROCESSOR_JAVA_OPTS (extra JVM
# options of the processors), PROFILE=1 (a JFR recording of each processor, settings=profile, in the run directory
# as processorN.jfr; read it with bench/jfr-thread-profile.py).
# Exit status: 0 records counted = records produced, 1 not equal or a failure, 64 wrong usage.
# Every child process is stopped by its PID on exit; the Kafka data and Streams state are deleted, the logs kept.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
AGENTS=200; RATE=20000; DURATION=10m; PRODUCERS=""; WARMUP=""; OUT="$ROOT/bench/target/cluster-soak"
usage() { sed -n '/^# usage:/,/^# Environment:/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 64; }
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || usage
  case $1 in
    --agents) AGENTS=$2;; --rate) RATE=$2;; --duration) DURATION=$2;; --producers) PRODUCERS=$2;;
    --warmup) WARMUP=$2;; --out) OUT=$2;; *) usage;;
  esac
  shift 2
done
die() { echo "cluster-soak: $*" >&2; exit 1; }
for tool in java curl; do command -v "$tool" >/dev/null || die "$tool not found"; done

. "$ROOT/bench/bench-jars.sh"
bench_jars cluster-soak
"$ROOT/siteflow" --version >/dev/null # the launcher builds the CLI jars if needed, before any child starts

mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
W="$OUT/run"
rm -rf "$W"
mkdir -p "$W"
PIDS=()   # children in start order; stopped in reverse order
stop_all() {
  local i pid
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
    pid=${PIDS[i]}
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$W"/kafka-* "$W"/streams-*
}
trap stop_all EXIT
trap 'exit 1' INT TERM

# free_port: a loopback TCP port nothing listens on (and not handed out before in this run)
USED_PORTS=" "
free_port() {
  local p
  while :; do
    p=$((20000 + RANDOM % 40000))
    case $USED_PORTS in *" $p "*) continue;; esac
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then USED_PORTS="$USED_PORTS$p "; echo "$p"; return; fi
  done
}

# 1. three brokers: node i listens for clients on 127.0.0.1:CLIENT[i], its controller on its --voters entry
CLUSTER_ID=$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | cut -c1-22)
declare -a CLIENT CONTROLLER BROKER_PID
VOTERS=""
for i in 1 2 3; do
  CLIENT[i]=$(free_port); CONTROLLER[i]=$(free_port)
  VOTERS="$VOTERS${VOTERS:+,}$i@127.0.0.1:${CONTROLLER[i]}"
done
for i in 1 2 3; do
  JAVA_OPTS="-Xms${BROKER_HEAP:-1g} -Xmx${BROKER_HEAP:-1g}" "$ROOT/siteflow" broker --cluster-id "$CLUSTER_ID" --node-id "$i" \
      --voters "$VOTERS" --listen "127.0.0.1:${CLIENT[i]}" --data-dir "$W/kafka-$i" \
      > "$W/broker$i.out" 2> "$W/broker$i.log" &
  BROKER_PID[i]=$!
  PIDS+=("${BROKER_PID[i]}")
done
for i in 1 2 3; do
  for _ in $(seq 360); do
    [ -s "$W/broker$i.out" ] && break
    kill -0 "${BROKER_PID[i]}" 2>/dev/null || die "broker $i ended: $(tail -3 "$W/broker$i.log")"
    sleep 0.5
  done
  [ -s "$W/broker$i.out" ] || die "broker $i printed no address within 180 s; log: $W/broker$i.log"
done
BOOTSTRAP="127.0.0.1:${CLIENT[1]},127.0.0.1:${CLIENT[2]},127.0.0.1:${CLIENT[3]}"
echo "cluster-soak: 3 brokers up ($BOOTSTRAP, cluster $CLUSTER_ID)" >&2

# 2. the fleet's site model; two processors (they create missing topics: replication 3, min.insync.replicas 2)
java -cp "$BENCH_CP" io.siteflow.bench.soak.SoakLoad sites "$AGENTS" "$W/sites.yaml"
declare -a HTTP PROC_PID
for i in 1 2; do
  HTTP[i]=$(free_port)
  JFR=""
  [ -n "${PROFILE:-}" ] && JFR="-XX:StartFlightRecording=filename=$W/processor$i.jfr,settings=profile,dumponexit=true"
  # shellcheck disable=SC2086
  JAVA_OPTS="-Xms${PROCESSOR_HEAP:-1g} -Xmx${PROCESSOR_HEAP:-1g} -Xlog:gc:file=$W/gc-processor$i.log $JFR ${PROCESSOR_JAVA_OPTS:-}" \
    "$ROOT/siteflow" process --bootstrap "$BOOTSTRAP" --sites "$W/sites.yaml" --http-port "${HTTP[i]}" \
      --state-dir "$W/streams-$i" --advertised-host 127.0.0.1 > "$W/processor$i.log" 2>&1 &
  PROC_PID[i]=$!
  PIDS+=("${PROC_PID[i]}")
done
for i in 1 2; do
  for _ in $(seq 360); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${HTTP[i]}/health" || true)" = 200 ] && break
    kill -0 "${PROC_PID[i]}" 2>/dev/null || die "processor $i ended: $(tail -5 "$W/processor$i.log")"
    sleep 0.5
  done
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${HTTP[i]}/health" || true)" = 200 ] \
    || die "processor $i not healthy within 180 s; log: $W/processor$i.log"
done
echo "cluster-soak: 2 processors running (http://127.0.0.1:${HTTP[1]}, http://127.0.0.1:${HTTP[2]})" >&2
"$ROOT/siteflow" topics check --bootstrap "$BOOTSTRAP" > "$W/topics.txt" 2>&1 \
  || die "siteflow topics check found an unsafe topic: $(cat "$W/topics.txt")"

# 3. the load and its measurements
MACHINE_BEFORE="$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "cluster-soak: $AGENTS agents, $RATE records/s for $DURATION; a progress line every 10 s" >&2
set +e
java -Xmx1g -cp "$BENCH_CP" io.siteflow.bench.soak.SoakLoad run --bootstrap "$BOOTSTRAP" \
    --api "http://127.0.0.1:${HTTP[1]}" --csv "$OUT/soak.csv" --agents "$AGENTS" --rate "$RATE" \
    --duration "$DURATION" ${PRODUCERS:+--producers "$PRODUCERS"} ${WARMUP:+--warmup "$WARMUP"} \
    --settle "${SETTLE:-120s}" --poll-ms "${POLL_MS:-500}" \
    --processor "processor1:${PROC_PID[1]}:$W/gc-processor1.log" \
    --processor "processor2:${PROC_PID[2]}:$W/gc-processor2.log" \
    --watch "broker1:${BROKER_PID[1]}" --watch "broker2:${BROKER_PID[2]}" --watch "broker3:${BROKER_PID[3]}" \
    > "$W/report.txt" 2> >(tee "$W/load.log" >&2)
rc=$?
set -e
[ "$rc" -eq 64 ] && exit 64
[ -s "$W/report.txt" ] || die "the load generator ended ($rc) without a report; log: $W/load.log"
MACHINE_AFTER="load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"

java -Djava.awt.headless=true -cp "$BENCH_CP" io.siteflow.bench.soak.SoakPlot "$OUT/soak.csv" "$OUT/soak.png" \
  "siteflow cluster soak: $AGENTS agents, $RATE records/s, $DURATION, 3 brokers, 2 processors" \
  || echo "cluster-soak: the plot failed (the CSV is in $OUT/soak.csv)" >&2
{
  echo "machine: $MACHINE_BEFORE; $MACHINE_AFTER"
  echo "command: bench/cluster-soak.sh --agents $AGENTS --rate $RATE --duration $DURATION${PRODUCERS:+ --producers $PRODUCERS}"
  echo "topics (siteflow topics check):"
  sed 's/^/    /' "$W/topics.txt"
  cat "$W/report.txt"
  echo
  echo "series: $OUT/soak.csv; plot: $OUT/soak.png; logs: $W"
} | tee "$OUT/report.md"
exit "$rc"
