#!/bin/bash
# Live capture benchmark with honest accounting (issue 26): what each capture costs the *machine*, not only its own
# process. Two network namespaces joined by a veth pair (offloads off, IPv6 off, so only the replayed frames cross
# it); tcpreplay sends 128-byte UDP frames from B; one tool at a time captures on A's end:
#   tcpdump   tcpdump -w /dev/null (snaplen 256, the same ring size)
#   libpcap   siteflow capture --backend pcap --capture-api libpcap (pcap_next_ex per packet, hand-off queue)
#   ring      siteflow capture --backend pcap --capture-api ring    (TPACKET_V3 ring read from Java, the default)
#   ebpf      siteflow capture --backend ebpf                       (flows aggregated in the kernel by a TC program)
# and "none" (nothing capturing) gives the machine's own cost of sending and receiving the same packets.
# Per run, between just before tcpreplay starts and 1.5 s after it ends (the last ring block is handed over after
# the 250 ms timeout; tcpdump's after 1 s), all in clock ticks (usually 10 ms: send enough packets):
#   machine ns/pkt  whole machine's busy CPU from /proc/stat (user+nice+system+irq+softirq+steal) with the tool
#                   minus the same of the "none" run just before it, over the packets sent
#   proc ns/pkt     user + system time of the tool's process (every thread), /proc/PID/stat, over the packets sent;
#                   JVM start-up is outside it (the window opens after "capturing on" / "listening")
#   sirq ns/pkt     the machine's irq + softirq ticks with the tool minus without (the kernel's packet-socket and
#                   BPF work runs there): on a machine saturated by other work (load above the cores) the busy
#                   total cannot grow, so machine ns/pkt reads near 0 ± noise; proc + sirq is then the estimate
#   bpf ns/run      ebpf only: run_time_ns / run_cnt of the siteflow_in and siteflow_out programs over the window
#                   (kernel.bpf_stats_enabled=1 for the run, bpftool prog show), the kernel time the other two
#                   columns see as softirq
#   load            the 1-minute load average when the run started: the machine is shared, read the spread
# Each tool first gets a warm-up (-u packets at the same rate, default 200 000, outside the window: a long-running agent
# has compiled its hot path; -u 0 measures the JIT's work too, which costs a JVM ~0.5-1 s of CPU after start-up);
# "received" and the drops include the warm-up packets.
# Every (rate, repeat) runs "none" then each tool in turn at the same asked rate; a rate of "max" sends as fast as
# tcpreplay can (--topspeed). The summary gives per rate and tool the median and the range over the repeats and the
# ratio of the medians to tcpdump's, the drops counted and the packets lost without a count (sent, warm-up included,
# minus received minus counted drops).
#
# usage: bench/agent-live.sh [-r "RATE ..."] [-n PACKETS_PER_RUN] [-b BUFFER_MIB] [-k REPEATS] [-t "TOOL ..."]
#                            [-w WORKERS] [-u WARMUP_PACKETS]
#   defaults: -r "100000 200000 max" -n 1000000 -b 64 -k 3 -t "tcpdump libpcap ring ebpf" -w 1 -u 200000
#   AGENT_CP=classpath runs io.siteflow.agent.app.AgentMain from it instead of the launcher's jars (no build)
# needs: root, iproute2, ethtool, tcpdump, tcpreplay, bpftool, python3, java 17, maven (the launcher builds the jars)
set -euo pipefail
RATES="100000 200000 max"; PACKETS=1000000; BUF=64; REPEATS=3; TOOLS="tcpdump libpcap ring ebpf"; WORKERS=1
WARMUP=200000
while getopts "r:n:b:k:t:w:u:" o; do
  case $o in r) RATES=$OPTARG;; n) PACKETS=$OPTARG;; b) BUF=$OPTARG;; k) REPEATS=$OPTARG;; t) TOOLS=$OPTARG;;
             w) WORKERS=$OPTARG;; u) WARMUP=$OPTARG;; *) exit 64;; esac
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d); A=sfbench-a-$$; B=sfbench-b-$$; TOOL_PID=; STATS0=$(sysctl -n kernel.bpf_stats_enabled)
cleanup() {
  if [ -n "$TOOL_PID" ]; then kill "$TOOL_PID" 2>/dev/null || true; fi
  sysctl -qw kernel.bpf_stats_enabled="$STATS0" || true
  ip netns del "$A" 2>/dev/null || true; ip netns del "$B" 2>/dev/null || true; rm -rf "$WORK"
}
trap cleanup EXIT

if [ -n "${AGENT_CP:-}" ]; then
  AGENT=(java -cp "$AGENT_CP" io.siteflow.agent.app.AgentMain)
else
  "$ROOT/siteflow" --version >/dev/null   # builds the jars if needed
  CP="$(ls "$ROOT"/cli/target/siteflow-cli-*.jar | grep -v -- '-tests\.jar$' | head -n1):$ROOT/cli/target/lib/*"
  AGENT=(java -cp "$CP" io.siteflow.cli.SiteflowCommand capture)
fi

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
LOOPS=$(( (PACKETS + 99999) / 100000 )); SENT=$(( LOOPS * 100000 ))

# busy: the machine's busy clock ticks so far (all CPUs); cpu_ticks PID: user + system ticks of a process
busy() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }
sirq() { awk '$1 == "cpu" { print $7 + $8; exit }' /proc/stat; }
cpu_ticks() { sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }
# bpf_ns: run_time_ns and run_cnt summed over the siteflow_ programs
bpf_ns() {
  bpftool -j prog show 2>/dev/null | python3 -c '
import json, sys
t = n = 0
for p in json.load(sys.stdin):
    if p.get("name", "").startswith("siteflow_"):
        t += p.get("run_time_ns", 0); n += p.get("run_cnt", 0)
print(t, n)'
}
TICK=$(getconf CLK_TCK)
per_packet() { awk -v t="$1" -v n="$SENT" -v hz="$TICK" 'BEGIN { printf "%.0f", t / hz * 1e9 / n }'; }

start_tool() {   # start_tool TOOL: starts it in A, waits until it is ready, sets TOOL_PID
  # Empty the output before the tool starts: its own "2>" truncates the file only once the background child runs,
  # and a grep before that read the previous tool's "capturing on" (ring after libpcap, ebpf after ring) and started
  # the warm-up while the JVM was still starting: the packets sent before it attached showed as "lost"
  : > "$WORK/tool.out"
  case $1 in
    tcpdump) ip netns exec "$A" tcpdump -i sfa0 -n -s 256 -B $((BUF * 1024)) -w /dev/null 2> "$WORK/tool.out" &
             TOOL_PID=$!; until grep -q listening "$WORK/tool.out"; do sleep 0.2; done;;
    libpcap|ring|ebpf)
      local how=(--backend pcap --capture-api "$1"); [ "$1" = ebpf ] && how=(--backend ebpf)
      ip netns exec "$A" "${AGENT[@]}" -i sfa0 --buffer-mb "$BUF" --workers "$WORKERS" "${how[@]}" --json \
          --agent bench > /dev/null 2> "$WORK/tool.out" & TOOL_PID=$!
      until grep -q "capturing on" "$WORK/tool.out"; do
        kill -0 "$TOOL_PID" 2>/dev/null || { cat "$WORK/tool.out" >&2; exit 1; }; sleep 0.2
      done;;
  esac
}

stop_tool() {   # stops the tool, writes "received kernel-drops agent-drops" to $WORK/counts
  case $1 in
    none) echo "- - -" > "$WORK/counts";;
    tcpdump) kill -INT "$TOOL_PID"; wait "$TOOL_PID" || true; TOOL_PID=
      echo "$(sed -n 's/^\([0-9]*\) packets\{0,1\} captured.*/\1/p' "$WORK/tool.out")" \
           "$(sed -n 's/^\([0-9]*\) packets\{0,1\} dropped by kernel.*/\1/p' "$WORK/tool.out")" 0 > "$WORK/counts";;
    *) kill -TERM "$TOOL_PID"; wait "$TOOL_PID" || true; TOOL_PID=
      local line; line=$(grep '^sfa0: .*packets received' "$WORK/tool.out")
      echo "$(sed 's/^sfa0: \([0-9]*\) packets received.*/\1/' <<<"$line")" \
           "$(sed 's/.* \([0-9]*\) dropped by kernel.*/\1/' <<<"$line")" \
           "$(sed -n 's/.* \([0-9]*\) dropped by the agent.*/\1/p' <<<"$line" | grep . || echo 0)" > "$WORK/counts";;
  esac
}

FMT="%-7s %-3s %-8s %-6s %-10s %-9s %-9s %-10s %-11s %-14s %-11s %-10s\n"
printf "$FMT" rate rep tool load offered received kern-drop agent-drop proc-ns/pkt machine-ns/pkt sirq-ns/pkt bpf-ns/run \
    | tee "$WORK/rows"
for rate in $RATES; do
  if [ "$rate" = max ]; then SPEED=(--topspeed); else SPEED=(--pps="$rate"); fi
  for rep in $(seq "$REPEATS"); do
    for tool in none $TOOLS; do
      [ "$tool" = ebpf ] && sysctl -qw kernel.bpf_stats_enabled=1
      if [ "$tool" != none ]; then
        start_tool "$tool"
        if [ "$WARMUP" -gt 0 ]; then
          ip netns exec "$B" tcpreplay -q -i sfb0 "${SPEED[@]}" --limit="$WARMUP" --loop=0 "$WORK/u128.pcap" >/dev/null 2>&1
          sleep 1.5
        fi
      fi
      load=$(cut -d' ' -f1 /proc/loadavg)
      s0=$(sirq); m0=$(busy); p0=0; [ -n "$TOOL_PID" ] && p0=$(cpu_ticks "$TOOL_PID"); read -r bt0 bn0 <<<"$(bpf_ns)"
      offered=$(ip netns exec "$B" tcpreplay -q -i sfb0 "${SPEED[@]}" --loop="$LOOPS" "$WORK/u128.pcap" 2>&1 \
          | sed -n 's/.*Mbps, \([0-9.]*\) pps.*/\1/p')
      sleep 1.5
      s1=$(sirq); m1=$(busy); p1=0; [ -n "$TOOL_PID" ] && p1=$(cpu_ticks "$TOOL_PID"); read -r bt1 bn1 <<<"$(bpf_ns)"
      stop_tool "$tool"; read -r recv kdrop adrop < "$WORK/counts"
      [ "$tool" = ebpf ] && sysctl -qw kernel.bpf_stats_enabled="$STATS0"
      if [ "$tool" = none ]; then BASE=$((m1 - m0)); SBASE=$((s1 - s0)); proc=-; machine=$(per_packet "$BASE")
        soft=$(per_packet "$SBASE"); else
        proc=$(per_packet $((p1 - p0))); machine=$(per_packet $((m1 - m0 - BASE))); soft=$(per_packet $((s1 - s0 - SBASE))); fi
      bpf=-; [ "$tool" = ebpf ] && bpf=$(awk -v t=$((bt1 - bt0)) -v n=$((bn1 - bn0)) 'BEGIN { if (n > 0) printf "%.0f", t / n; else print "-" }')
      printf "$FMT" "$rate" "$rep" "$tool" "$load" "$offered" "$recv" "$kdrop" "$adrop" "$proc" "$machine" "$soft" "$bpf" \
          | tee -a "$WORK/rows"
    done
  done
done

echo
echo "summary over $REPEATS repeats, $SENT packets a run after $WARMUP of warm-up (median [min..max]; ratio: medians over tcpdump's):"
python3 - "$WORK/rows" $((SENT + WARMUP)) <<'PY'
import statistics, sys
expected = int(sys.argv[2])
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()[1:]]
def num(v):
    try: return float(v)
    except ValueError: return None
def stat(vals):
    vals = [v for v in vals if v is not None]
    if not vals: return None, "-"
    m = statistics.median(vals)
    return m, "%.0f [%.0f..%.0f]" % (m, min(vals), max(vals))
fmt = "%-7s %-8s %-22s %-20s %-24s %-7s %-20s %-7s %-7s %-16s %s"
print(fmt % ("rate", "tool", "offered", "proc ns/pkt", "machine ns/pkt", "ratio", "sirq ns/pkt", "drops", "lost",
             "bpf ns/run", "load"))
for rate in dict.fromkeys(r[0] for r in rows):
    mine = [r for r in rows if r[0] == rate]
    ref, _ = stat([num(r[9]) for r in mine if r[2] == "tcpdump"])
    for tool in dict.fromkeys(r[2] for r in mine):
        rs = [r for r in mine if r[2] == tool]
        _, off = stat([num(r[4]) for r in rs])
        _, proc = stat([num(r[8]) for r in rs])
        med, mach = stat([num(r[9]) for r in rs])
        _, soft = stat([num(r[10]) for r in rs])
        _, bpf = stat([num(r[11]) for r in rs])
        drops = sum(int(r[6]) + int(r[7]) for r in rs if r[6].isdigit())
        # packets neither received nor counted as dropped: lost without a count
        lost = sum(expected - int(r[5]) - int(r[6]) - int(r[7]) for r in rs if r[5].isdigit())
        ratio = "%.2f" % (med / ref) if med is not None and ref and tool != "none" else "-"
        loads = [num(r[3]) for r in rs]
        print(fmt % (rate, tool, off, proc, mach, ratio, soft, drops if tool != "none" else "-",
                     lost if tool != "none" else "-", bpf,
                     "%.1f-%.1f" % (min(loads), max(loads))))
PY
