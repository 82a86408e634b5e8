#!/usr/bin/env bash
# siteflow traffic lab: two sites in network namespaces joined through a delaying router namespace,
# real FMW-like traffic (TNS, T3/JMS, Coherence, HTTP, DNS) and the ground truth of what crossed.
#
#   deploy/lab/lab.sh up     [--prefix P] [--delay-ms 3.25]
#   deploy/lab/lab.sh run    [--prefix P] [--seconds 60] [--mix db=0.93] [--share wls4=0.80]... [--out truth.json]
#   deploy/lab/lab.sh record FILE.pcap [--prefix P] [--seconds 60] [--mix db=0.93] [--share HOST=F]... [--out T.json]
#   deploy/lab/lab.sh down   [--prefix P]
#   deploy/lab/lab.sh nudge  [--prefix P]    (one datagram outside region 1: ends a waiting `iftop -t -s N`)
#
# `run` and `record` use the lab that `up` built, or build one for the run and delete it afterwards.
# Needs root, iproute2, ethtool, libpcap and tcpdump. See deploy/lab/README.md.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

die() { echo "lab: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "must run as root (network namespaces, packet capture)"
for tool in ip ethtool tcpdump java; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool not found (Debian: apt-get install iproute2 ethtool tcpdump openjdk-17-jdk-headless)"
done

case "${1:-}" in
  up|run|record|down|nudge|bridge) ;;
  ""|-h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) die "unknown command '$1' (up, run, record, down, nudge)" ;;
esac

# Build the jars the way ./siteflow does (first use, or sources changed), then run the lab's entry point.
"$ROOT/siteflow" --version >/dev/null
# The lab is its own module (traffic-lab): its jar and its dependencies in traffic-lab/target/lib.
jar=$(ls "$ROOT"/traffic-lab/target/traffic-lab-*.jar 2>/dev/null | head -n 1 || true)
[ -n "$jar" ] && [ -d "$ROOT/traffic-lab/target/lib" ] || die "traffic-lab/target has no jar or lib: run 'mvn -B -q -DskipTests package' in $ROOT"
JAVA_OPTS="${JAVA_OPTS:-} -XX:+UseParallelGC -Dorg.pcap4j.af.inet=2 -Dorg.pcap4j.af.inet6=10"
# shellcheck disable=SC2086
exec java $JAVA_OPTS -cp "$jar:$ROOT/traffic-lab/target/lib/*" io.siteflow.lab.LabMain "$@"
