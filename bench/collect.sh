#!/usr/bin/env bash
# Benchmark of `siteflow collect` against the reference collector nfcapd, in one run on the same datagrams:
#   the datagrams are generated once: pmacctd (nfprobe, NetFlow v9 or IPFIX) exports a large synthetic capture
#   (io.siteflow.bench.GenerateCapture) to a UDP recorder (io.siteflow.bench.DatagramReplay record), kept in
#   $SITEFLOW_BENCH_DIR; then the recording is replayed (DatagramReplay replay: as fast as the socket takes it, or
#   RATE datagrams/s) to, in turn:
#   (a) siteflow collect --json=FILE          (CollectMain, records as JSON lines to a file)
#   (b) siteflow collect --bootstrap B        (records to an embedded broker this script starts; SKIP_KAFKA=1 skips)
#   (c) nfcapd -w DIR                          (the reference; its flows counted by `nfdump -I`)
# For each: datagrams sent, datagrams received (siteflow's summary line; nfcapd's by `nfdump -I` "Flows"/"Sequence
# failures" and its log), flow records, records/s over the replay's wall time, datagrams lost. Prints a Markdown table.
# Environment: PACKETS (1000000), SEED (1), VERSION (9 or 10; 10), RATE (0: as fast as possible), SKIP_KAFKA=1,
# SITEFLOW_BENCH_DIR (default /tmp/siteflow-bench).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${SITEFLOW_BENCH_DIR:-/tmp/siteflow-bench}"
PACKETS="${PACKETS:-1000000}"
SEED="${SEED:-1}"
VERSION="${VERSION:-10}"
RATE="${RATE:-0}"
CAPTURE="$DIR/many-flows-v1-$PACKETS-$SEED.pcap"
DATAGRAMS="$DIR/nfprobe-v$VERSION-$PACKETS-$SEED.datagrams"
RUN="$DIR/collect-$$"
PIDS=()

die() { echo "collect.sh: $*" >&2; exit 1; }
for tool in java pmacctd nfcapd nfdump; do command -v "$tool" >/dev/null || die "$tool not found"; done
mkdir -p "$DIR" "$RUN"
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$RUN"; }
trap cleanup EXIT

# shellcheck source=bench/bench-jars.sh
. "$ROOT/bench/bench-jars.sh"
bench_jars collect.sh
port() { python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# 1. the capture and the recording, once
if [ ! -s "$CAPTURE" ]; then
  echo "collect.sh: generating $CAPTURE ($PACKETS packets)..." >&2
  java -cp "$BENCH_CP" io.siteflow.bench.GenerateCapture "$CAPTURE.tmp" "$PACKETS" "$SEED"
  mv "$CAPTURE.tmp" "$CAPTURE"
fi
if [ ! -s "$DATAGRAMS" ]; then
  echo "collect.sh: recording pmacctd's nfprobe v$VERSION export of $CAPTURE..." >&2
  P=$(port)
  java -cp "$BENCH_CP" io.siteflow.bench.DatagramReplay record "$DATAGRAMS.tmp" "$P" "$RUN/pmacctd.done" \
    > "$RUN/recorded" &
  REC=$!; PIDS+=("$REC")
  printf '%s\n' "daemonize: false" "pcap_savefile: $CAPTURE" "pcap_savefile_wait: false" "plugins: nfprobe" \
    "nfprobe_receiver: 127.0.0.1:$P" "nfprobe_version: $VERSION" "nfprobe_timeouts: maxlife=5:expint=1" \
    "plugin_pipe_size: 10240000" "plugin_buffer_size: 10240" > "$RUN/pmacctd.conf"
  pmacctd -f "$RUN/pmacctd.conf" > "$RUN/pmacctd.log" 2>&1 || true   # exit 1 when its plugin went first
  touch "$RUN/pmacctd.done"
  wait "$REC"
  mv "$DATAGRAMS.tmp" "$DATAGRAMS"
  echo "collect.sh: $(cat "$RUN/recorded") datagrams recorded" >&2
fi

replay() { java -cp "$BENCH_CP" io.siteflow.bench.DatagramReplay replay "$DATAGRAMS" "127.0.0.1:$1" "$RATE"; }

# collect_run NAME ARGS...: starts CollectMain with ARGS, replays, stops it (SIGTERM) and prints
# "sent seconds received records"
collect_run() {
  local name=$1; shift
  java -Xmx1g -cp "$BENCH_CP" io.siteflow.agent.app.CollectMain --listen 127.0.0.1:0 --agent bench "$@" \
    > "$RUN/$name.out" 2> "$RUN/$name.err" &
  local pid=$!; PIDS+=("$pid")
  local p=""
  for _ in $(seq 240); do
    p=$(grep -oE 'collecting on udp 127\.0\.0\.1:[0-9]+' "$RUN/$name.err" | grep -oE '[0-9]+$' || true)
    [ -n "$p" ] && break
    kill -0 "$pid" 2>/dev/null || die "$name: collect ended: $(tail -3 "$RUN/$name.err")"
    sleep 0.5
  done
  [ -n "$p" ] || die "$name: collect did not listen within 120 s"
  read -r sent secs <<<"$(replay "$p")"
  kill -TERM "$pid"; wait "$pid" || die "$name: collect exited $?: $(tail -3 "$RUN/$name.err")"
  local line; line=$(grep -oE '[0-9]+ datagrams from [0-9]+ exporters, [0-9]+ refused; [0-9]+ flow records' \
    "$RUN/$name.err" | tail -1)
  echo "$sent $secs $(echo "$line" | awk '{print $1, $(NF-2)}')"
}

# 2. siteflow collect --json
read -r S_JSON T_JSON R_JSON F_JSON <<<"$(collect_run json --json="$RUN/flows.jsonl")"

# 3. siteflow collect --bootstrap (embedded broker)
S_KAFKA=""
if [ -z "${SKIP_KAFKA:-}" ]; then
  java -cp "$BENCH_CP" io.siteflow.broker.BrokerCommand --data-dir "$RUN/kafka" > "$RUN/broker.out" 2> "$RUN/broker.err" &
  BROKER=$!; PIDS+=("$BROKER")
  for _ in $(seq 240); do
    [ -s "$RUN/broker.out" ] && break
    kill -0 "$BROKER" 2>/dev/null || die "broker ended: $(tail -3 "$RUN/broker.err")"
    sleep 0.5
  done
  BOOTSTRAP=$(head -n 1 "$RUN/broker.out")
  [ -n "$BOOTSTRAP" ] || die "the broker printed no address within 120 s"
  read -r S_KAFKA T_KAFKA R_KAFKA F_KAFKA <<<"$(collect_run kafka --bootstrap "$BOOTSTRAP" --spool-dir "$RUN/spool")"
  kill "$BROKER"; wait "$BROKER" 2>/dev/null || true
fi

# 4. nfcapd
P=$(port)
mkdir -p "$RUN/nf"
nfcapd -w "$RUN/nf" -p "$P" -b 127.0.0.1 -t 3600 -B 16777216 > "$RUN/nfcapd.log" 2>&1 &
NF=$!; PIDS+=("$NF")
for _ in $(seq 60); do grep -q 'Startup' "$RUN/nfcapd.log" 2>/dev/null && break; sleep 0.5; done
sleep 1
read -r S_NF T_NF <<<"$(replay "$P")"
kill -TERM "$NF"; wait "$NF" 2>/dev/null || true
NFSTAT=$(nfdump -R "$RUN/nf" -I 2>/dev/null)
F_NF=$(echo "$NFSTAT" | awk -F': ' '/^Flows:/ {print $2; exit}')
SEQFAIL=$(echo "$NFSTAT" | awk -F': ' '/^Sequence failures:/ {print $2; exit}')

rate() { awk -v r="$1" -v t="$2" 'BEGIN { printf "%.0f", r / t }'; }
echo
echo "pmacctd nfprobe v$VERSION datagrams of $CAPTURE, replayed $( [ "$RATE" = 0 ] && echo 'as fast as possible' || echo "at $RATE datagrams/s")"
echo
echo "| collector | datagrams sent | received | lost | flow records | replay s | records/s |"
echo "|---|---:|---:|---:|---:|---:|---:|"
echo "| siteflow collect --json FILE | $S_JSON | $R_JSON | $((S_JSON - R_JSON)) | $F_JSON | $T_JSON | $(rate "$F_JSON" "$T_JSON") |"
if [ -n "$S_KAFKA" ]; then
  echo "| siteflow collect --bootstrap (embedded broker) | $S_KAFKA | $R_KAFKA | $((S_KAFKA - R_KAFKA)) | $F_KAFKA | $T_KAFKA | $(rate "$F_KAFKA" "$T_KAFKA") |"
fi
echo "| nfcapd (nfdump -I) | $S_NF | n/a | sequence failures: $SEQFAIL | $F_NF | $T_NF | $(rate "$F_NF" "$T_NF") |"
