# shellcheck shell=sh
# The JVM options of every siteflow command, one source for both launchers: ./siteflow (the source tree, bash) and
# bin/siteflow (the distribution, sh) source this file (POSIX sh). It sets SITEFLOW_JVM_OPTS and defines
# siteflow_jit_opts and siteflow_cds. JAVA_OPTS comes after these options in both launchers, so that it wins.

# Parallel GC (throughput: the agent and the processor keep little live data); exit at the first OutOfMemoryError,
# so that systemd, Kubernetes or the operator restarts a clean process instead of one that limps on and loses
# records; pcap4j's address family numbers on Linux.
SITEFLOW_JVM_OPTS="-XX:+UseParallelGC -XX:+ExitOnOutOfMemoryError -Dorg.pcap4j.af.inet=2 -Dorg.pcap4j.af.inet6=10"

# siteflow_jit_opts ARGS...: prints -XX:TieredStopAtLevel=1 for `siteflow capture -r FILE --json` (no --text,
# --bootstrap or --realtime), else nothing. Such a run reads a file as fast as possible into JSON lines, over in
# seconds, and spends more CPU in the C2 compiler than C2 saves, so it runs with C1 only: median CPU 5.25 s -> 3.60 s
# on bench/agent-offline.sh's 5.5 M packets (docs/BENCHMARKS.md). Not with the text report, whose per-packet work C1
# compiles worse (7.58 s -> 9.76 s), nor with Kafka (not measured). SITEFLOW_JIT=full keeps C2 always.
siteflow_jit_opts() {
  [ "${1:-}" = capture ] || return 0
  [ "${SITEFLOW_JIT:-}" = full ] && return 0
  local a file='' json=''
  for a in "$@"; do
    case $a in
      --realtime|-t|--text|--bootstrap|--bootstrap=*) return 0;;
      -r|-r*) file=1;;
      --json|--json=*) json=1;;
    esac
  done
  if [ -n "$file" ] && [ -n "$json" ]; then echo "-XX:TieredStopAtLevel=1"; fi
  return 0
}

# The class-data sharing archive (JDK 17 dynamic AppCDS) of the classes a capture loads: the JVM maps them instead
# of loading and verifying them on every start (start-up is most of a short command's time). Made by one training
# run, `siteflow capture` of a 2-packet file, under a lock; made again when the jars or the JDK change. Only where
# the launcher may write (SITEFLOW_NO_CDS=1 turns it off); elsewhere the JVM starts as before.
#
# siteflow_cds DIR LOCK STAMP JAVA CLASSPATH: sets SITEFLOW_CDS_JSA to DIR/cds.jsa when that archive exists or was
# just made (first made, or made again, when missing or older than STAMP or the JDK), else to ''. LOCK is the file
# locked while it is made.
siteflow_cds() {
  SITEFLOW_CDS_JSA=''
  local dir=$1 lock=$2 stamp=$3 java=$4 cp=$5 jdk jsa
  [ -z "${SITEFLOW_NO_CDS:-}" ] || return 0
  command -v flock >/dev/null 2>&1 || return 0
  { mkdir -p "$dir" && [ -w "$dir" ]; } 2>/dev/null || return 0
  jdk=$(readlink -f "$(command -v "$java")")
  jsa=$dir/cds.jsa
  if siteflow_cds_stale "$jsa" "$stamp" "$jdk"; then
    exec 9>"$lock"
    flock 9
    if siteflow_cds_stale "$jsa" "$stamp" "$jdk"; then
      rm -f "$jsa" "$dir/cds.tmp.jsa"
      siteflow_cds_training_file "$dir/cds-training.pcap" 2>/dev/null || true
      # shellcheck disable=SC2086 # options are words on purpose
      "$java" $SITEFLOW_JVM_OPTS ${JAVA_OPTS:-} -XX:ArchiveClassesAtExit="$dir/cds.tmp.jsa" -Xlog:cds=off \
          -Xlog:cds+dynamic=off -cp "$cp" io.siteflow.cli.SiteflowCommand capture -r "$dir/cds-training.pcap" \
          --json --agent cds >/dev/null 2>&1 && [ -s "$dir/cds.tmp.jsa" ] && mv "$dir/cds.tmp.jsa" "$jsa" \
          || rm -f "$dir/cds.tmp.jsa"
    fi
    flock -u 9
    exec 9>&-
  fi
  if [ -f "$jsa" ]; then SITEFLOW_CDS_JSA=$jsa; fi
  return 0
}

# siteflow_cds_stale JSA STAMP JDK: true when the archive is missing or older than the build stamp or the JDK.
siteflow_cds_stale() {
  [ ! -f "$1" ] || [ "$2" -nt "$1" ] || [ "$3" -nt "$1" ]
}

# siteflow_cds_training_file FILE: a pcap (µs, Ethernet): one TCP SYN 10.1.0.1:40000 -> 10.2.0.2:443 and one UDP
# datagram back (octal escapes: POSIX printf has no \x).
siteflow_cds_training_file() {
  local eth='\002\000\000\000\000\002\002\000\000\000\000\001\010\000'
  {
    printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000\000\001\000\000\001\000\000\000'
    printf '\000\000\000\000\000\000\000\000\066\000\000\000\066\000\000\000'"$eth"
    printf '\105\000\000\050\000\001\000\000\100\006\000\000\012\001\000\001\012\002\000\002'
    printf '\234\100\001\273\000\000\000\001\000\000\000\000\120\002\377\377\000\000\000\000'
    printf '\001\000\000\000\000\000\000\000\052\000\000\000\052\000\000\000'"$eth"
    printf '\105\000\000\034\000\002\000\000\100\021\000\000\012\002\000\002\012\001\000\001'
    printf '\000\065\234\101\000\010\000\000'
  } > "$1"
}
