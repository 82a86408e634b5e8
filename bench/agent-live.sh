#!/bin/bash
# Live capture benchmark: the highest replay rate at which the agent (`siteflow capture -i IFACE --json`,
# the whole pipeline: pcap4j dispatch, hand-off, decode, flow table, JSON) loses nothing, next to tcpdump on
# the same veth. Two network namespaces joined by a veth pair (offloads off, IPv6 off, so only the replayed
# frames cross it); tcpreplay sends 128-byte UDP frames from B at each rate in turn; the agent and tcpdump
# both capture on A's end. The search stops at the first rate where the agent drops (in the kernel or in its
# own hand-off queue). tcpreplay shares the CPUs: read the "offered" column, not the asked rate.
# CPU per packet: user + system time of the whole process (every thread), from /proc/PID/stat, between
# "ready" (the agent printed "capturing on", tcpdump "listening") and the stop, divided by the packets it
# received; JVM start-up is outside it. /proc counts in clock ticks (usually 10 ms): send enough packets.
# With -w, the search runs once per worker count (`--workers N`, PACKET_FANOUT hash group).
#
# usage: bench/agent-live.sh [-r "RATE RATE ..."] [-n PACKETS_PER_RATE] [-b BUFFER_MIB] [-w "WORKERS ..."]
# needs: root, iproute2, ethtool, tcpdump, tcpreplay, python3, java 17, maven (the launcher builds the jars)
set -euo pipefail
RATES="50000 100000 150000 200000 300000 400000"; PACKETS=1000000; BUF=64; WORKERS=1
while getopts "r:n:b:w:" o; do
  case $o in r) RATES=$OPTARG;; n) PACKETS=$OPTARG;; b) BUF=$OPTARG;; w) WORKERS=$OPTARG;; *) exit 64;; esac
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d); A=sfbench-a-$$; B=sfbench-b-$$; LIVE_PID=; DUMP_PID=
cleanup() {
  for p in $LIVE_PID $DUMP_PID; do kill "$p" 2>/dev/null || true; done
  ip netns del "$A" 2>/dev/null || true; ip netns del "$B" 2>/dev/null || true; rm -rf "$WORK"
}
trap cleanup EXIT

"$ROOT/siteflow" --version >/dev/null   # builds the jars if needed
CP="$(ls "$ROOT"/cli/target/siteflow-cli-*.jar | grep -v -- '-tests\.jar$' | head -n1):$ROOT/cli/target/lib/*"

for ns in "$A" "$B"; do
  ip netns add "$ns"; ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
done
ip -n "$A" link add sfa0 address 02:5f:00:00:00:01 type veth peer name sfb0 address 02:5f:00:00:00:02 netns "$B"
ip -n "$A" link set sfa0 up; ip -n "$B" link set sfb0 up
ip netns exec "$A" ethtool -K sfa0 tso off gso off gro off >/dev/null
ip netns exec "$B" ethtool -K sfb0 tso off gso off gro off >/dev/null

# 100 000 frames of 128 bytes, UDP 10.99.200.2 -> 10.99.200.1 from 1000 source ports
python3 - "$WORK/u128.pcap" <<'PY'
import struct, sys
out = open(sys.argv[1], 'wb'); out.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
for i in range(100000):
    payload = bytes(128 - 42)
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 28 + len(payload), i & 0xffff, 0, 64, 17, 0, bytes([10, 99, 200, 2]), bytes([10, 99, 200, 1]))
    frame = bytes.fromhex('025f00000001025f00000002') + b'\x08\x00' + ip + struct.pack('!HHHH', 40000 + i % 1000, 9, 8 + len(payload), 0) + payload
    out.write(struct.pack('<IIII', 0, i, len(frame), len(frame)) + frame)
PY
LOOPS=$(( (PACKETS + 99999) / 100000 ))

TICK=$(getconf CLK_TCK)
# cpu_ticks PID: user + system clock ticks of the process so far, all threads (fields 14 and 15 of stat)
cpu_ticks() { sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }
# ns_per_packet TICKS PACKETS
ns_per_packet() { awk -v t="$1" -v n="$2" -v hz="$TICK" 'BEGIN { if (n > 0) printf "%.0f", t / hz * 1e9 / n; else print "-" }'; }

FMT="%-7s %-8s %-10s %-12s %-10s %-10s %-12s %-12s %-10s %-12s %-8s\n"
printf "$FMT" workers asked offered agent-recv kern-drop agent-drop agent-ns/pkt tcpdump-recv tcpdump-drop tcpdump-ns/pkt ratio
for workers in $WORKERS; do
BEST=0
for rate in $RATES; do
  ip netns exec "$A" java -cp "$CP" io.siteflow.cli.SiteflowCommand capture -i sfa0 --buffer-mb "$BUF" \
      --workers "$workers" --json --agent bench > /dev/null 2> "$WORK/live.out" & LIVE_PID=$!
  ip netns exec "$A" tcpdump -i sfa0 -n -s 256 -B $((BUF * 1024)) -w /dev/null 2> "$WORK/dump.err" & DUMP_PID=$!
  until grep -q "capturing on" "$WORK/live.out" && grep -q listening "$WORK/dump.err"; do sleep 0.2; done
  lcpu0=$(cpu_ticks "$LIVE_PID"); dcpu0=$(cpu_ticks "$DUMP_PID")
  offered=$(ip netns exec "$B" tcpreplay -q -i sfb0 --pps="$rate" --loop="$LOOPS" "$WORK/u128.pcap" 2>&1 \
      | sed -n 's/.*Mbps, \([0-9.]*\) pps.*/\1/p')
  sleep 1.5   # the last ring block is handed over after the 250 ms timeout (tcpdump: 1 s)
  lcpu=$(( $(cpu_ticks "$LIVE_PID") - lcpu0 )); dcpu=$(( $(cpu_ticks "$DUMP_PID") - dcpu0 ))
  kill -TERM "$LIVE_PID"; wait "$LIVE_PID" || true; LIVE_PID=
  kill -INT "$DUMP_PID"; wait "$DUMP_PID" || true; DUMP_PID=
  live=$(grep '^sfa0: .*packets received' "$WORK/live.out")
  lrecv=$(sed 's/^sfa0: \([0-9]*\) packets received.*/\1/' <<<"$live")
  ldrop=$(sed 's/.* \([0-9]*\) dropped by kernel.*/\1/' <<<"$live")
  adrop=$(sed 's/.* \([0-9]*\) dropped by the agent.*/\1/' <<<"$live")
  drecv=$(sed -n 's/^\([0-9]*\) packets\{0,1\} captured.*/\1/p' "$WORK/dump.err")
  ddrop=$(sed -n 's/^\([0-9]*\) packets\{0,1\} dropped by kernel.*/\1/p' "$WORK/dump.err")
  lns=$(ns_per_packet "$lcpu" "$lrecv"); dns=$(ns_per_packet "$dcpu" "$drecv")
  ratio=$(awk -v a="$lns" -v b="$dns" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
  printf "$FMT" "$workers" "$rate" "$offered" "$lrecv" "$ldrop" "$adrop" "$lns" "$drecv" "$ddrop" "$dns" "$ratio"
  if [ "$ldrop" != 0 ] || [ "$adrop" != 0 ] || [ "$lrecv" -lt "$drecv" ]; then break; fi
  BEST=$(awk -v a="$BEST" -v b="$offered" 'BEGIN { print (b > a ? b : a) }')
done
echo "workers $workers: highest offered rate without agent drops: $BEST packets/s (buffer $BUF MiB)"
done
