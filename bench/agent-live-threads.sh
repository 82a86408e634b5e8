#!/bin/bash
# Per-thread CPU of the live agent (user and system clock ticks from /proc/PID/task/TID/stat) while tcpreplay
# sends 100,000 UDP frames LOOPS times (default 5) at PPS (default 100000) on a veth in two fresh namespaces:
# which thread pays for a packet (capture, siteflow-flows, JIT, GC). Extra arguments go to `siteflow capture`.
# With the default --capture-api ring the capture thread (main, or siteflow-capture-N) decodes and aggregates too: there
# is no siteflow-flows thread; --capture-api libpcap shows the old split (capture thread copies, siteflow-flows works).
# usage: PPS=100000 LOOPS=5 bench/agent-live-threads.sh [--workers 2] [--capture-api libpcap]   (root; tcpreplay, python3)
#   AGENT_CP=classpath runs io.siteflow.agent.app.AgentMain from it instead of the launcher's jars
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${AGENT_CP:-}" ]; then AGENT=(java ${EXTRA:-} -cp "$AGENT_CP" io.siteflow.agent.app.AgentMain); else
  CP="$(ls "$ROOT"/cli/target/siteflow-cli-*.jar | grep -v -- '-tests\.jar$' | head -n1):$ROOT/cli/target/lib/*"
  AGENT=(java ${EXTRA:-} -cp "$CP" io.siteflow.cli.SiteflowCommand capture); fi
A=sfprof-a-$$; B=sfprof-b-$$; WORK=$(mktemp -d); LIVE_PID=
cleanup() { [ -n "$LIVE_PID" ] && kill "$LIVE_PID" 2>/dev/null || true; ip netns del "$A" 2>/dev/null || true; ip netns del "$B" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
for ns in "$A" "$B"; do ip netns add "$ns"; ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1; done
ip -n "$A" link add sfa0 type veth peer name sfb0 netns "$B"
ip -n "$A" link set sfa0 up; ip -n "$B" link set sfb0 up
python3 - "$WORK/u.pcap" <<'PY'
import struct, sys
out = open(sys.argv[1], 'wb'); out.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
for i in range(100000):
    payload = bytes(86)
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 28 + len(payload), i & 0xffff, 0, 64, 17, 0, bytes([10, 99, 200, 2]), bytes([10, 99, 200, 1]))
    frame = bytes.fromhex('025f00000001025f00000002') + b'\x08\x00' + ip + struct.pack('!HHHH', 40000 + i % 1000, 9, 8 + len(payload), 0) + payload
    out.write(struct.pack('<IIII', 0, i, len(frame), len(frame)) + frame)
PY
ip netns exec "$A" "${AGENT[@]}" -i sfa0 --json --agent prof "$@" > /dev/null 2> "$WORK/live.out" & LIVE_PID=$!
until grep -q "capturing on" "$WORK/live.out"; do sleep 0.2; done
snap() { for t in /proc/$LIVE_PID/task/*; do echo "${t##*/}:$(cat $t/comm | tr ' ' _) $(sed 's/^.*) //' $t/stat | awk '{print $12" "$13}')"; done | sort; }
snap > "$WORK/t0"
ip netns exec "$B" tcpreplay -q -i sfb0 --pps=${PPS:-100000} --loop=${LOOPS:-5} "$WORK/u.pcap" 2>&1 | grep -o '[0-9.]* pps' | tail -1
sleep 1.5
snap > "$WORK/t1"
join -a2 "$WORK/t0" "$WORK/t1" | awk 'NF==5 { u=$4-$2; y=$5-$3 } NF==3 { u=$2; y=$3 } u+y>0 { printf "%-28s user %d sys %d ticks\n", $1, u, y; s+=u+y } END { print "total", s, "ticks" }'
kill -TERM $LIVE_PID; wait $LIVE_PID || true; LIVE_PID=
grep 'packets received' "$WORK/live.out"
