#!/usr/bin/env python3
"""Summarises a JFR recording's jdk.ExecutionSample events of the threads whose name matches the regex THREAD: share by
pipeline part (JSON parse, Kafka Streams, audit, classify/route, ...), top frames, siteflow methods inclusive.
Usage: bench/jfr-thread-profile.py RECORDING.jfr THREAD   (e.g. '^streams-bench-.*StreamThread-1$', the topology's
stream thread in bench/streams.sh; needs the JDK's jfr on PATH).."""
import json, re, subprocess, sys, collections
jfr, thread = sys.argv[1], sys.argv[2]
out = subprocess.run(["jfr", "print", "--json", "--events", "jdk.ExecutionSample", jfr], capture_output=True, text=True, check=True).stdout
events = json.loads(out)["recording"]["events"]
sf = set(); cats = collections.Counter(); tops = collections.Counter(); incl = collections.Counter(); n = 0
RULES = [
  ("json parse", ["FlowRecordJson.parse", "FlowRecordJson.read", "jackson"]),
  ("audit stores/aggregates", ["PairWindows", "TalkerTable", "AlertRules", "ObserverRule", "WriteBehind", "AggregateStore", "PairAggregate"]),
  ("classify/route", ["Classifier", "RouteStep", "ActiveModel", "AuditRouting"]),
  ("dedupe", ["DedupeStep", "SeenIds", "SeenRuns"]),
  ("repartition serde", ["FlowRecordBinary"]),
  ("producer/send", ["RecordCollectorImpl", "KafkaProducer"]),
  ("rocksdb", ["rocksdb", "RocksDB"]),
  ("consumer poll/fetch", ["KafkaConsumer", "Fetcher", "FetchCollector", "ClassicKafkaConsumer", "AsyncKafkaConsumer"]),
]
for e in events:
    st = e["values"]["sampledThread"]
    name = (st.get("javaName") or st.get("osName") or "")
    if not re.search(thread, name): continue
    frames = [f["method"]["type"]["name"] + "." + f["method"]["name"] for f in (e["values"]["stackTrace"] or {}).get("frames", [])]
    n += 1
    tops[frames[0] if frames else "?"] += 1
    seen = set()
    for f in frames:
        if f.startswith('io/siteflow'): sf.add(f.rsplit('.', 2)[-2].rsplit('/',1)[-1] + '.' + f.rsplit('.', 1)[-1])
    for f in frames:
        short = f.rsplit('.', 2)[-2].rsplit('/',1)[-1] + '.' + f.rsplit('.', 1)[-1]
        if short not in seen: incl[short] += 1; seen.add(short)
    cat = "kafka streams internals/other"
    for c, keys in RULES:
        if any(k in f for f in frames for k in keys): cat = c; break
    cats[cat] += 1
print(f"samples on threads matching '{thread}': {n}")
for c, k in cats.most_common(): print(f"  {c:32s} {100*k/n:5.1f}%")
print("top self frames:")
for f, k in tops.most_common(15): print(f"  {100*k/n:5.1f}%  {f}")
print("top inclusive (io/siteflow methods):")
for f, k in [x for x in incl.most_common(2000) if x[0] in sf][:30]:
    print(f"  {100*k/n:5.1f}%  {f}")
