"""Report of run-move-comparison.sh: reads its results file (system, record size, round, metric, value; tab-separated)
and the run's settings from the environment, prints the markdown report and writes move-<stamp>.{md,csv,json} and
move-latest.* under WORK_DIR. Systems: kafka, sluice, sluice-file, and floor-<system> (the floor run on that system's
segment files). Values in the tables are medians over the rounds that gave one."""
import csv
import json
import os
import statistics

e = os.environ
DIRECT_FLOOR = e.get("FLOOR_WRITES", "buffered") == "direct"
NAMES = {"floor": "floor (sendfile → read, O_DIRECT write + fsync)" if DIRECT_FLOOR
         else "floor (sendfile → read/write + fsync)", "kafka": "Apache Kafka %s" % e["KAFKA_VERSION"],
         "sluice": "Sluice (follower fetch)", "sluice-file": "Sluice (file path)"}
TARGETS = (("rate_vs_kafka", "move MB/s ÷ Kafka's", "≥ 3.0", lambda r: r >= 3.0),
           ("rate_vs_floor", "move MB/s ÷ the floor's", "≥ 0.8", lambda r: r >= 0.8),
           ("source_cpu_vs_kafka", "source CPU per GB ÷ Kafka's", "≤ 0.3", lambda r: r <= 0.3),
           ("target_cpu_vs_kafka", "target CPU per GB ÷ Kafka's", "≤ 0.3", lambda r: r <= 0.3),
           ("source_warm_cpu_vs_kafka", "source CPU per GB without JIT ÷ Kafka's", "≤ 0.3", lambda r: r <= 0.3),
           ("target_warm_cpu_vs_kafka", "target CPU per GB without JIT ÷ Kafka's", "≤ 0.3", lambda r: r <= 0.3))

rows = []
with open(e["RESULTS"]) as f:
    for line in f:
        parts = line.rstrip("\n").split("\t", 4)
        if len(parts) == 5:
            rows.append({"system": parts[0], "record_size": int(parts[1]), "round": int(parts[2]),
                         "metric": parts[3], "value": parts[4]})


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


# Derived per system run: MB/s and CPU seconds per GB of the move (and of the move back under steady load).
by = {}
for r in rows:
    by.setdefault((r["system"], r["record_size"], r["round"]), {})[r["metric"]] = r["value"]
for (system, rs, rnd), m in sorted(by.items()):
    size = num(m.get("partition_mb"))
    for prefix in ("move", "back", "warm", "moveback"):
        secs = num(m.get(prefix + "_s"))
        if not size or not secs:
            continue
        derived = {prefix + "_mb_per_s": size / secs}
        for side in ("source", "target"):
            cpu = num(m.get("%s_%s_cpu_s" % (prefix, side)))
            if cpu is not None:
                derived["%s_%s_cpu_s_per_gb" % (prefix, side)] = cpu / (size / 1024)
                jit = num(m.get("%s_%s_jit_s" % (prefix, side)))
                if jit is not None:
                    derived["%s_%s_warm_cpu_s_per_gb" % (prefix, side)] = (cpu - jit) / (size / 1024)
        for k, v in derived.items():
            m[k] = "%.3f" % v
            rows.append({"system": system, "record_size": rs, "round": rnd, "metric": k, "value": m[k]})


def values(system, rs, metric):
    match = (lambda s: s.startswith("floor-")) if system == "floor" else (lambda s: s == system)
    return [num(m[metric]) for (s, r, _), m in by.items()
            if match(s) and r == rs and metric in m and num(m[metric]) is not None]


def median(system, rs, metric):
    vals = values(system, rs, metric)
    return statistics.median(vals) if vals else None


def fmt(v, digits=2):
    if v is None:
        return "-"
    if abs(v) >= 1000:
        return "{:,.0f}".format(v)
    return ("{:.%df}" % digits).format(v)


def ratio(a, b):
    return None if a is None or b in (None, 0) else a / b


record_sizes = sorted({r["record_size"] for r in rows})
systems = [s for s in e["SYSTEMS_RUN"].split() if s in NAMES]
sluices = [s for s in systems if s.startswith("sluice")]
has_floor = any(r["system"].startswith("floor-") for r in rows)
columns = (["floor"] if has_floor else []) + systems

lines = []
P = lines.append
P("## Partition move: Sluice vs Apache Kafka %s vs the floor, %s" % (e["KAFKA_VERSION"], e["STARTED_AT"]))
P("")
P("Machine: %s cores (%s), kernel %s, %s; load average before %s, after %s. Sluice at commit %s." % (
    e["NPROC"], e["CPU_MODEL"], e["KERNEL"], e["JAVA_VERSION"], e["LOAD_BEFORE"], e["LOAD_AFTER"], e["GIT_HEAD"]))
P("")
P("Command: `%s`" % e["COMMAND"])
P("")
P("Settings: one partition of %s MB (segment files on disk; MB = 2^20 B, GB = 2^30 B), records of %s B, "
  "compression.type=%s, filled by ProducerPerformance (acks=1, linger.ms=5), log.segment.bytes = %s MB on every "
  "broker; 2 brokers per system (Kafka: KRaft, one controller-only node + 2 brokers; Sluice: one `sluice zookeeper` "
  "+ 2 `sluice server`), broker heap %s, other settings default (no replication throttle). Move: "
  "ReassignPartitionsCommand.executeAssignment (kafka-reassign-partitions.sh --execute) to the other broker, done "
  "when ListPartitionReassignments lists nothing and Metadata shows replicas = [target] led by the target (polled "
  "every %s ms). CPU: utime+stime of the source and target broker JVMs over the move (/proc/<pid>/stat). Rounds: %s, "
  "systems alternating (%s first in odd rounds, reversed in even rounds). %s" % (
      e["SIZE_MB"], e["RECORD_SIZES"].replace(",", " and "), e["COMPRESSION"], e["SEGMENT_MB"], e["BROKER_HEAP"],
      e["POLL_MS"], e["ROUNDS"], systems[0] if systems else "-",
      "Page cache cold (COLD=1): the source's partition files synced and dropped from the page cache before the "
      "floor and before every move, so every move and the floor read their source from the disk." if e.get("COLD") == "1"
      else "Page cache warm: the source files were just written (and synced) on every system and for the floor; "
      "before the move back and the warm move the source's segment files are read once into the page cache on both "
      "systems (a Sluice target writes its new replica with O_DIRECT as fast as its disk takes it and, by default, the "
      "files its disk cannot take in time through the page cache; Kafka's goes into the page cache)."))
P("")
if e.get("IN_SERVICE") == "1":
    P("**Brokers in service (IN_SERVICE=1):** before the measured partition existed, every cluster (both systems "
      "alike, nothing of it measured) served topic `service`: %s MB of the same records produced, read end to end by "
      "ConsumerPerformance, moved between the two brokers %s times (each broker source and target) and read again; "
      "and, before those moves, %s s of one produce request per record (%s records/s of 100 B, acks=1) on topic "
      "`chatter` (a partition on each broker) tailed by a consumer. "
      "The first move below is the first move of this partition on brokers that have served producers, consumers and "
      "moves, as brokers in service have; their JIT compilers have seen those paths." % (
          e.get("SERVICE_MB"), e.get("SERVICE_MOVES"), e.get("SERVICE_CHATTY_SECONDS", "0"),
          e.get("SERVICE_CHATTY_RATE", "-")))
    P("")
if has_floor:
    P("Floor: MoveFloor.java on the source broker's segment files of each system run (brokers idle): one loopback "
      "connection, FileChannel.transferTo (sendfile) per file on the sender; on the receiver, %s, fsync of each "
      "file and of the directory, then a one-byte "
      "acknowledgement (no checksum, no framing beyond a name and a length per file); seconds are the sender's, "
      "connect to acknowledgement; CPU is each JVM's process CPU over its part. There is no socket-to-file splice "
      "in JDK 17." % ("reads into a ring of three block-aligned 1 MiB direct buffers, a writer thread writes each "
                      "full one into a new file with O_DIRECT (the last partial block through the page cache) while "
                      "the next fills (FLOOR_WRITES=direct)" if DIRECT_FLOOR
                      else "reads into one 1 MiB direct buffer and writes it into a new file through the page cache "
                      "(FLOOR_WRITES=buffered)"))
    P("")
if not e.get("SLUICE_FILE_PATH_OVERRIDES"):
    P("Sluice row: **follower-fetch bootstrap only** (the new replica fetches the partition from the leader with "
      "Kafka's Fetch API). The file path (segment files shipped with sendfile) is not on this build's main yet; "
      "SLUICE_FILE_PATH_OVERRIDES was not set, so there is no \"Sluice (file path)\" row. The targets below are "
      "the issue's, meant for the file path; they are shown against the follower-fetch row only for reference.")
else:
    P("Sluice (file path): both Sluice brokers started with `%s`." % e["SLUICE_FILE_PATH_OVERRIDES"])
P("")

medians = {}
for rs in record_sizes:
    P("### %s MB partition, %s B records" % (e["SIZE_MB"], rs))
    P("")
    P("| move | " + " | ".join(NAMES[c] for c in columns) + " |")
    P("|---|" + "---|" * len(columns))
    table = (("partition_mb", "partition MB (segment files)", 1), ("segments", "segment files", 0),
             ("move_s", "move seconds", 2), ("move_mb_per_s", "MB/s", 1),
             ("move_isr_s", "target in ISR after, s", 2), ("move_source_cpu_s", "source CPU s", 2),
             ("move_target_cpu_s", "target CPU s", 2), ("move_source_cpu_s_per_gb", "source CPU s / GB", 2),
             ("move_target_cpu_s_per_gb", "target CPU s / GB", 2),
             ("move_source_jit_s", "source JIT compiler threads, CPU s", 2),
             ("move_target_jit_s", "target JIT compiler threads, CPU s", 2),
             ("move_source_warm_cpu_s_per_gb", "source CPU s / GB without JIT", 2),
             ("move_target_warm_cpu_s_per_gb", "target CPU s / GB without JIT", 2),
             ("warm_s", "warm move (the third): seconds", 2), ("warm_mb_per_s", "warm move: MB/s", 1),
             ("warm_source_cpu_s_per_gb", "warm move: source CPU s / GB", 2),
             ("warm_target_cpu_s_per_gb", "warm move: target CPU s / GB", 2),
             ("warm_source_jit_s", "warm move: source JIT compiler threads, CPU s", 2),
             ("warm_target_jit_s", "warm move: target JIT compiler threads, CPU s", 2),
             ("fill_s", "fill seconds (not part of the move)", 0))
    for metric, label, digits in table:
        if metric.startswith("warm_") and all(median(c, rs, metric) is None for c in columns):
            continue
        P("| %s | %s |" % (label, " | ".join(fmt(median(c, rs, metric), digits) for c in columns)))
    P("")
    if sluices:
        P("| ratio (medians) | " + " | ".join(NAMES[s] for s in sluices) + " | target |")
        P("|---|" + "---|" * (len(sluices) + 1))
        warm_run = any(median(s, rs, "warm_mb_per_s") is not None for s in sluices)
        for prefix, what in (("move", "first move"), ("warm", "warm move")):
            if prefix == "warm" and not warm_run:
                continue
            for key, label, target, ok in TARGETS:
                if prefix == "warm" and "_warm_" in key:
                    continue  # a warm move's JIT is already small: its CPU rows above are the ones to read
                cells = []
                for s in sluices:
                    if key == "rate_vs_kafka":
                        r = ratio(median(s, rs, prefix + "_mb_per_s"), median("kafka", rs, prefix + "_mb_per_s"))
                    elif key == "rate_vs_floor":
                        r = ratio(median(s, rs, prefix + "_mb_per_s"), median("floor", rs, "move_mb_per_s"))
                    else:
                        side = key.split("_")[0]
                        m = prefix + ("_%s_warm_cpu_s_per_gb" if "_warm_" in key else "_%s_cpu_s_per_gb") % side
                        r = ratio(median(s, rs, m), median("kafka", rs, m))
                    medians.setdefault(str(rs), {}).setdefault(s, {})[key if prefix == "move" else "warm_" + key] = r
                    cells.append("-" if r is None else "%.2f (%s)" % (r, "met" if ok(r) else "not met"))
                P("| %s: %s | %s | %s |" % (what, label, " | ".join(cells), target))
        r = ratio(median("kafka", rs, "move_mb_per_s"), median("floor", rs, "move_mb_per_s"))
        P("| (Kafka's MB/s ÷ the floor's) | %s |  |" % " | ".join(["-" if r is None else "%.2f" % r] * len(sluices)))
        P("")
    if e["PRODUCE_DURING"] == "1":
        P("Other partitions during the move: topic `steady` (2 partitions, RF 1, one per broker when placement "
          "allows), %s records/s of %s B, acks=1, linger.ms=0, latency from each record's scheduled send time; "
          "%s s without a move, then while the partition moves back to its first broker." % (
              e["STEADY_RATE"], e["STEADY_RECORD_SIZE"], e["STEADY_SECONDS"]))
        P("")
        P("| steady producer | " + " | ".join(NAMES[s] for s in systems) + " |")
        P("|---|" + "---|" * len(systems))
        for metric, label in (("steady_base_p50_ms", "p50 ms, no move"), ("steady_move_p50_ms", "p50 ms, during the move"),
                              ("steady_base_p99_ms", "p99 ms, no move"), ("steady_move_p99_ms", "p99 ms, during the move"),
                              ("steady_base_p999_ms", "p99.9 ms, no move"),
                              ("steady_move_p999_ms", "p99.9 ms, during the move"),
                              ("steady_base_max_ms", "max ms, no move"), ("steady_move_max_ms", "max ms, during the move"),
                              ("steady_move_count", "records in the move window"),
                              ("moveback_s", "move back seconds (under the steady load)"),
                              ("moveback_mb_per_s", "move back MB/s")):
            digits = 0 if metric.endswith("_count") else 1
            P("| %s | %s |" % (label, " | ".join(fmt(median(s, rs, metric), digits) for s in systems)))
        P("| p99 during ÷ p99 without | %s |" % " | ".join(
            "-" if ratio(median(s, rs, "steady_move_p99_ms"), median(s, rs, "steady_base_p99_ms")) is None else
            "%.2f" % ratio(median(s, rs, "steady_move_p99_ms"), median(s, rs, "steady_base_p99_ms")) for s in systems))
        P("")

P("Per round:")
P("")
P("| system | record B | round | metric | value |")
P("|---|---|---|---|---|")
for r in sorted(rows, key=lambda r: (r["record_size"], r["round"], r["system"], r["metric"])):
    P("| %s | %d | %d | %s | %s |" % (r["system"], r["record_size"], r["round"], r["metric"], r["value"].replace("|", "/")))
errors = [r for r in rows if r["metric"].startswith("error")]
if errors:
    P("")
    P("Errors:")
    for r in errors:
        P("- %s %d B round %d, %s: %s" % (r["system"], r["record_size"], r["round"], r["metric"], r["value"]))
P("")
P("Tool output and cluster logs: %s/" % e["KEEP_DIR"])
report = "\n".join(lines) + "\n"
print("\n" + report)

base = os.path.join(e["WORK_DIR"], "move-" + e["STAMP"])
with open(base + ".md", "w") as f:
    f.write(report)
with open(base + ".csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["system", "record_size", "round", "metric", "value"])
    for r in rows:
        w.writerow([r["system"], r["record_size"], r["round"], r["metric"], r["value"]])
summary = {}
for rs in record_sizes:
    metrics = sorted({r["metric"] for r in rows if r["record_size"] == rs and not r["metric"].startswith("error")})
    summary[str(rs)] = {m: {c: median(c, rs, m) for c in columns} for m in metrics}
doc = {"started_at": e["STARTED_AT"], "command": e["COMMAND"], "git_head": e["GIT_HEAD"],
       "machine": {"nproc": int(e["NPROC"]), "cpu_model": e["CPU_MODEL"], "kernel": e["KERNEL"],
                   "java": e["JAVA_VERSION"], "load_before": e["LOAD_BEFORE"], "load_after": e["LOAD_AFTER"]},
       "settings": {k: e.get(k) for k in ("KAFKA_VERSION", "SIZE_MB", "RECORD_SIZES", "COMPRESSION", "SEGMENT_MB", "ROUNDS",
                                      "ORDER", "POLL_MS", "FLOOR", "PRODUCE_DURING", "STEADY_RATE",
                                      "IN_SERVICE", "SERVICE_MB", "SERVICE_MOVES", "SERVICE_CHATTY_SECONDS", "SERVICE_CHATTY_RATE",
                                      "STEADY_RECORD_SIZE", "STEADY_SECONDS", "SLUICE_FILE_PATH_OVERRIDES",
                                      "BROKER_HEAP", "COORD_HEAP", "SYSTEMS_RUN")},
       "medians": summary, "ratios": medians, "rows": rows}
with open(base + ".json", "w") as f:
    json.dump(doc, f, indent=2)
for ext in (".md", ".csv", ".json"):
    with open(base + ext) as src, open(os.path.join(e["WORK_DIR"], "move-latest" + ext), "w") as dst:
        dst.write(src.read())
print("Written: %s.{md,csv,json} (and move-latest.*)" % base)
