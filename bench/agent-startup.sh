#!/usr/bin/env bash
# JVM start-up of `siteflow capture -r TINY --json > /dev/null` (a 1-packet file: start-up is all of it), in
# three set-ups, RUNS times each in turn, medians of wall and CPU (user + system, bash `time`):
#   before:      no class-data sharing archive (SITEFLOW_NO_CDS=1), logging from the old logback.xml (XML parser)
#   code-logging: no archive, logging configured in code (io.siteflow.cli.LogSetup)
#   cds:         the launcher's CDS archive and code logging (what `siteflow` does now)
# usage: bench/agent-startup.sh [RUNS] (default 9); prints a Markdown table and the load average.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUNS="${1:-9}"
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
"$ROOT/siteflow" --version >/dev/null   # builds, and makes the archive
TINY="$ROOT/.siteflow/cds-training.pcap"
git -C "$ROOT" show 24c590d:cli/src/main/resources/logback.xml > "$WORK/logback.xml"

# one_run ENV...: "WALL_NS CPU_NS" of one start
one_run() {
  local t0 t1 c
  t0=$(date +%s%N)
  c=$( { TIMEFORMAT='%3U %3S'; time env "$@" "$ROOT/siteflow" capture -r "$TINY" --json >/dev/null 2>&1; } 2>&1 \
      | awk '{ printf "%.0f", ($1 + $2) * 1e9 }')
  t1=$(date +%s%N)
  echo "$((t1 - t0)) $c"
}
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

declare -A W C
SETUPS=(before code-logging cds)
for _ in $(seq "$RUNS"); do
  for s in "${SETUPS[@]}"; do
    case $s in
      before) r=$(one_run SITEFLOW_NO_CDS=1 JAVA_OPTS="-Dlogback.configurationFile=$WORK/logback.xml");;
      code-logging) r=$(one_run SITEFLOW_NO_CDS=1);;
      cds) r=$(one_run X=1);;
    esac
    W[$s]="${W[$s]:-} ${r% *}"; C[$s]="${C[$s]:-} ${r#* }"
  done
done
echo "Start-up, $RUNS runs each (interleaved), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| set-up | wall ms (median) | CPU ms (median) |"
echo "|---|---|---|"
for s in "${SETUPS[@]}"; do
  # shellcheck disable=SC2086
  printf "| %s | %d | %d |\n" "$s" "$(( $(median ${W[$s]}) / 1000000 ))" "$(( $(median ${C[$s]}) / 1000000 ))"
done
