# Sourced by the bench scripts (not run): bench_jars NAME builds the bench module and the jars it is made of when
# they are missing or older than any main source, then sets BENCH_JAR and BENCH_CP (the classpath of the bench
# programs). NAME prefixes the progress line. Needs ROOT (the repository root).
bench_jars() {
  BENCH_JAR="$ROOT/bench/target/siteflow-bench-0.1.0-SNAPSHOT.jar"
  if [ ! -f "$BENCH_JAR" ] || [ ! -f "$ROOT/bench/target/lib/stream-processor-0.1.0-SNAPSHOT.jar" ] \
      || [ -n "$(find "$ROOT"/*/src/main "$ROOT/pom.xml" \
           -newer "$BENCH_JAR" -type f 2>/dev/null | head -1)" ]; then
    echo "$1: building..." >&2
    (cd "$ROOT" && mvn -B -q -Dstyle.color=never -DskipTests -pl bench -am package) >&2
    touch "$BENCH_JAR" # the jar plugin leaves an unchanged jar as it was: mark it as built now
  fi
  BENCH_CP="$BENCH_JAR:$ROOT/bench/target/lib/*"
}
