#!/bin/bash
# Coverage-guided fuzzing of the project's parsers with Jazzer: each @FuzzTest harness in turn (a `fuzz` package in
# the src/test of flow-model, classifier-rules, capture-agent, stream-processor and cli) runs under libFuzzer for the
# given time, instrumenting the project's own classes (io.siteflow.**). Prints, per harness, the executions, the
# coverage (libFuzzer's "cov": edges of io.siteflow code reached; "ft": features) and the findings, and leaves
# every finding under the work directory with the command that reproduces it. `mvn verify` runs the same
# harnesses in regression mode over the committed seeds and kept findings only (docs/FUZZING.md).
#
# usage: bench/fuzz.sh [SECONDS] [HARNESS ...]   SECONDS per harness (default 600); HARNESS: Class or Class#method
#        bench/fuzz.sh --seeds                   regenerate the committed seeds from the project's own fixtures
#        bench/fuzz.sh --list                    the harnesses
# env:   FUZZ_WORK (default target/fuzz under the repository), FUZZ_NICE (default 19)
# needs: java 17, maven (offline build of the five modules)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${FUZZ_WORK:-$ROOT/target/fuzz}
NICE=${FUZZ_NICE:-19}
MODULES=(flow-model classifier-rules capture-agent stream-processor cli)
# module  class  method
HARNESSES="
flow-model io.siteflow.model.fuzz.FlowRecordJsonFuzzTest parsesOrRejectsWithAMessage
flow-model io.siteflow.model.fuzz.FlowRecordJsonFuzzTest roundTripsEveryRecord
flow-model io.siteflow.model.fuzz.HeartbeatFuzzTest readsOrAnswersEmpty
flow-model io.siteflow.model.fuzz.HeartbeatFuzzTest roundTripsEveryHeartbeat
classifier-rules io.siteflow.rules.fuzz.SiteModelFuzzTest loadsOrReportsEveryProblemWithItsPosition
classifier-rules io.siteflow.rules.fuzz.FlowSyntaxFuzzTest parsesOrRefusesAndPrintsBackTheSameFlow
capture-agent io.siteflow.agent.fuzz.CaptureFileFuzzTest readsOrStopsAtAnOffsetInTheFile
capture-agent io.siteflow.agent.fuzz.CaptureFileFuzzTest readsGzipCompressedCaptures
capture-agent io.siteflow.agent.fuzz.PacketDecoderFuzzTest decodesAnyFrameOfEveryLinkType
capture-agent io.siteflow.agent.fuzz.SignatureFuzzTest recognisesOrPassesAnyPayload
capture-agent io.siteflow.agent.fuzz.FlowTableFuzzTest keepsTotalsExactAndStaysBounded
capture-agent io.siteflow.agent.fuzz.ExportDecoderFuzzTest decodesAnyNetFlowV5Datagrams
capture-agent io.siteflow.agent.fuzz.ExportDecoderFuzzTest decodesAnyNetFlowV9Datagrams
capture-agent io.siteflow.agent.fuzz.ExportDecoderFuzzTest decodesAnyIpfixMessages
capture-agent io.siteflow.agent.fuzz.SflowDecoderFuzzTest decodesAnySflowDatagrams
stream-processor io.siteflow.processor.fuzz.FlowRecordBinaryFuzzTest readsOrRefusesNamingTheTopic
stream-processor io.siteflow.processor.fuzz.FlowRecordBinaryFuzzTest roundTripsEveryRecordTheJsonCodecAccepts
stream-processor io.siteflow.processor.fuzz.HttpParamsFuzzTest answersOkOrABadRequestNamingTheParameter
cli io.siteflow.cli.input.fuzz.FlowLogFuzzTest readsAnyAwsFlowLog
cli io.siteflow.cli.input.fuzz.FlowLogFuzzTest readsAnyOciFlowLog
cli io.siteflow.cli.input.fuzz.FlowLogFuzzTest readsAnyFlowRecordLines
"

build() {
  mkdir -p "$WORK"
  if ! (cd "$ROOT" && mvn -B -q -o -pl "$(IFS=,; echo "${MODULES[*]}")" -am -DskipTests test-compile \
      dependency:build-classpath -Dmdep.outputFile=target/fuzz.classpath) > "$WORK/build.log" 2>&1; then
    grep ERROR "$WORK/build.log" | head -20 >&2; echo "fuzz.sh: build failed ($WORK/build.log)" >&2; exit 1
  fi
}

snapshot() {  # the run reads a copy of the compiled classes: rebuilding the tree meanwhile does not disturb it
  rm -rf "$WORK/classes"
  for d in "$ROOT"/*/target/classes "$ROOT"/*/target/test-classes; do
    m=$(basename "$(dirname "$(dirname "$d")")")
    mkdir -p "$WORK/classes/$m"; cp -r "$d" "$WORK/classes/$m/"
  done
  for m in "${MODULES[@]}"; do cp "$ROOT/$m/target/fuzz.classpath" "$WORK/classes/$m/"; done
}

classpath() {  # module -> its test classpath, from the snapshot when there is one
  local base=$ROOT/$1/target
  if [ -d "$WORK/classes/$1" ]; then
    base=$WORK/classes/$1
    echo "$base/test-classes:$base/classes:$(sed "s#$ROOT/\([^/:]*\)/target/classes#$WORK/classes/\1/classes#g" "$base/fuzz.classpath")"
  else
    echo "$base/test-classes:$base/classes:$(cat "$base/fuzz.classpath")"
  fi
}

selected() {  # class method -> 0 when chosen by the arguments
  [ ${#PICK[@]} -eq 0 ] && return 0
  for p in "${PICK[@]}"; do
    case "$p" in "${1##*.}"|"${1##*.}#$2"|"$1"|"$1#$2") return 0;; esac
  done
  return 1
}

if [ "${1:-}" = --list ]; then
  echo "$HARNESSES" | awk 'NF { split($2, c, "."); print c[length(c)] "#" $3 "  (" $1 ")" }'; exit 0
fi
if [ "${1:-}" = --seeds ]; then
  build; rm -rf "$WORK/classes"
  java -cp "$(classpath flow-model)" io.siteflow.model.fuzz.SeedCorpus "$ROOT/flow-model"
  java -cp "$(classpath capture-agent)" io.siteflow.agent.fuzz.SeedCorpus "$ROOT/capture-agent"
  java -cp "$(classpath stream-processor)" io.siteflow.processor.fuzz.SeedCorpus "$ROOT"   # reads flow-model's
  java -cp "$(classpath classifier-rules)" io.siteflow.rules.fuzz.SeedCorpus "$ROOT"
  java -cp "$(classpath cli)" io.siteflow.cli.input.fuzz.SeedCorpus "$ROOT/cli"
  echo "seeds written under */src/test/resources/io/siteflow/*/fuzz/"; exit 0
fi
SECONDS_EACH=600
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then SECONDS_EACH=$1; shift; fi
PICK=("$@")

build
snapshot
SHARED=$ROOT/../shared/corpus
TABLE=$WORK/table.md
{
  echo "| harness | seconds | executions | exec/s | coverage (cov / ft) | corpus | findings |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
} > "$TABLE"
echo "$HARNESSES" | while read -r module class method; do
  [ -n "$module" ] || continue
  selected "$class" "$method" || continue
  name=${class##*.}.$method
  corpus=$WORK/corpus/$name; findings=$WORK/findings/$name; log=$WORK/logs/$name.log
  rm -rf "$findings"; mkdir -p "$corpus" "$findings" "$(dirname "$log")"
  if [ "${class##*.}" = CaptureFileFuzzTest ] && [ -d "$SHARED" ]; then
    # extra seeds: the shared corpus's small captures, copied into the work directory only
    find "$SHARED" -type f \( -name '*.pcap' -o -name '*.pcapng' -o -name '*.cap' \) -size -64k | while read -r f; do
      cp "$f" "$corpus/shared-$(echo "$f" | md5sum | cut -c1-12)"   # several files share a name
    done
  fi
  echo "fuzzing $name for ${SECONDS_EACH}s (log: $log)" >&2
  # --hooks=true: the test resources' junit-platform.properties turn the hooks (and so the coverage
  # instrumentation) off for mvn verify, and the Jazzer command line reads that file too
  start=$(date +%s)
  (cd "$ROOT/$module" && nice -n "$NICE" java -Xmx1g -cp "$(classpath "$module")" com.code_intelligence.jazzer.Jazzer \
      --target_class="$class" --target_method="$method" --instrumentation_includes='io.siteflow.**' \
      --hooks=true --dedup=true --keep_going=50 "$corpus" -max_total_time="$SECONDS_EACH" -timeout=30 -rss_limit_mb=3072 \
      -artifact_prefix="$findings/" -print_final_stats=1) > "$log" 2>&1 || true
  took=$(( $(date +%s) - start ))
  # -a: a log holding a finding has its bytes and reads as binary to grep
  runs=$(grep -aEo 'Done [0-9]+ runs' "$log" | tail -1 | grep -Eo '[0-9]+' || true)
  [ -n "$runs" ] || runs=$(grep -aEo '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
  cov=$(grep -aEo 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -1 || true)
  found=$(find "$findings" -type f | wc -l)
  echo "| ${class##*.}#$method | $took | ${runs:-0} | $(( ${runs:-0} / (took > 0 ? took : 1) )) | $(echo "$cov" | awk '{print $2 " / " $4}') | $(echo "$cov" | awk '{print $6}') | $found |" >> "$TABLE"
done
echo
cat "$TABLE"
echo
echo "findings (reproduce: copy a file into src/test/resources/<package>/<Class>Inputs/<method>/ and run mvn -Dtest=<Class> test):"
find "$WORK/findings" -type f 2>/dev/null | sed 's/^/  /'
