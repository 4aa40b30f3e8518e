#!/usr/bin/env bash
# Replication side by side (issue 12): three Sluice brokers (+ one ZooKeeper) against three Apache Kafka 3.9.1
# brokers (KRaft, Maven Central jars), on this machine, in the same run, alternating.
#
#   produce  : kafka-tools' ProducerPerformance, RF 3, acks=all, min.insync.replicas=2, 100-byte records, zstd,
#              linger.ms=5, --throughput -1: records/s, MB/s, avg/p50/p95/p99/p99.9/max latency, and broker CPU
#              seconds per million records (utime+stime of the broker JVMs from /proc/<pid>/stat, before/after the
#              producer run; reported without and with the coordination processes: Sluice's ZooKeeper, Kafka's
#              KRaft controller).
#   kill     : a topic of FAILOVER_PARTITIONS partitions, RF 3; SIGKILL of the broker leading the most of them (not
#              the active controller) -> ms until Metadata shows every partition led by another broker.
#   shutdown : on a freshly started cluster, the same topic; SIGTERM (controlled shutdown) of the broker leading the
#              most -> ms until its process is gone, and ms until every partition is led by another broker.
# Prints a markdown table with Sluice/Kafka ratios and the issue's targets, and writes
# sluice-bench/peer/target/replication-<UTC time>.{md,csv,json} (and replication-latest.*). Logs of the last run:
# sluice-bench/peer/target/replication-last-run/.
#
# Usage: flock /tmp/heavy.lock sluice-bench/peer/run-replication-comparison.sh [--only kafka|sluice|both]
# Environment (defaults in brackets):
#   RECORDS [2000000] RECORD_SIZE [100] PARTITIONS [6] RF [3] MIN_INSYNC [2] ACKS [all] COMPRESSION [zstd]
#   LINGER_MS [5] ROUNDS [2] ORDER [kafka-first|sluice-first] PHASES [produce,kill,shutdown]
#   FAILOVER_PARTITIONS [1000] FAILOVER_ROUNDS [1] FAILOVER_TIMEOUT [90 s] POLL_MS [50] AVOID_CONTROLLER [true]
#   SESSION_TIMEOUT_MS [6000: Kafka broker.session.timeout.ms = Sluice zookeeper.session.timeout.ms]
#   KAFKA_MODE [separate: one KRaft controller + 3 brokers | combined: 3 broker+controller nodes]
#   BROKER_HEAP [1g] COORD_HEAP [512m] STEP_TIMEOUT [600 s per tool run] READY_TIMEOUT [180 s] KEEP_DATA [0]
#   WARMUP_RECORDS [0: a ProducerPerformance run of that many records before the measured one, not counted]
#   PREFLIGHT [1: one acks=ACKS record first (30 s bound); when it is not acknowledged the broker's error is reported
#              and ProducerPerformance is not run. 0: run ProducerPerformance anyway, bounded by STEP_TIMEOUT]
# Needs: JDK 17, Maven (reaches Maven Central once, through kafka-lib.sh), python3, coreutils timeout, and Sluice
# built from the repository root with: mvn -B -q package -DskipTests   (no install needed)
set -euo pipefail

ONLY=both
while [[ $# -gt 0 ]]; do
  case "$1" in
    --only) ONLY="${2:-}"; shift 2 ;;
    -h|--help) sed -n '2,33p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (try --help)" >&2; exit 2 ;;
  esac
done
case "$ONLY" in kafka|sluice|both) ;; *) echo "--only must be kafka, sluice or both, was '$ONLY'" >&2; exit 2 ;; esac

SETTINGS=(RECORDS RECORD_SIZE PARTITIONS RF MIN_INSYNC ACKS COMPRESSION LINGER_MS ROUNDS ORDER PHASES
  FAILOVER_PARTITIONS FAILOVER_ROUNDS FAILOVER_TIMEOUT POLL_MS AVOID_CONTROLLER SESSION_TIMEOUT_MS KAFKA_MODE
  BROKER_HEAP COORD_HEAP STEP_TIMEOUT READY_TIMEOUT KEEP_DATA PREFLIGHT WARMUP_RECORDS)
COMMAND=""
for v in "${SETTINGS[@]}"; do [[ -n "${!v+x}" ]] && COMMAND+="$v=${!v} "; done
# Under "flock LOCKFILE script", the report's command says so too.
[[ "$(ps -o comm= -p "$PPID" 2>/dev/null)" == flock ]] && COMMAND+="flock $(ps -o args= -p "$PPID" | awk '{ print $2 }') "
COMMAND+="sluice-bench/peer/run-replication-comparison.sh"
[[ "$ONLY" == both ]] || COMMAND+=" --only $ONLY"

RECORDS="${RECORDS:-2000000}"
RECORD_SIZE="${RECORD_SIZE:-100}"
PARTITIONS="${PARTITIONS:-6}"
RF="${RF:-3}"
MIN_INSYNC="${MIN_INSYNC:-2}"
ACKS="${ACKS:-all}"
COMPRESSION="${COMPRESSION:-zstd}"
LINGER_MS="${LINGER_MS:-5}"
ROUNDS="${ROUNDS:-2}"
ORDER="${ORDER:-kafka-first}"
PHASES="${PHASES:-produce,kill,shutdown}"
FAILOVER_PARTITIONS="${FAILOVER_PARTITIONS:-1000}"
FAILOVER_ROUNDS="${FAILOVER_ROUNDS:-1}"
FAILOVER_TIMEOUT="${FAILOVER_TIMEOUT:-90}"
POLL_MS="${POLL_MS:-50}"
AVOID_CONTROLLER="${AVOID_CONTROLLER:-true}"
SESSION_TIMEOUT_MS="${SESSION_TIMEOUT_MS:-6000}"
KAFKA_MODE="${KAFKA_MODE:-separate}"
BROKER_HEAP="${BROKER_HEAP:-1g}"
COORD_HEAP="${COORD_HEAP:-512m}"
STEP_TIMEOUT="${STEP_TIMEOUT:-600}"
READY_TIMEOUT="${READY_TIMEOUT:-180}"
KEEP_DATA="${KEEP_DATA:-0}"
PREFLIGHT="${PREFLIGHT:-1}"
WARMUP_RECORDS="${WARMUP_RECORDS:-0}"
case "$ORDER" in kafka-first|sluice-first) ;; *) echo "ORDER must be kafka-first or sluice-first, was '$ORDER'" >&2; exit 2 ;; esac
case "$KAFKA_MODE" in separate|combined) ;; *) echo "KAFKA_MODE must be separate or combined, was '$KAFKA_MODE'" >&2; exit 2 ;; esac
for p in ${PHASES//,/ }; do
  case "$p" in produce|kill|shutdown) ;; *) echo "PHASES lists produce, kill, shutdown; got '$p'" >&2; exit 2 ;; esac
done
has_phase() { [[ ",$PHASES," == *",$1,"* ]]; }

KAFKA_VERSION=3.9.1
BROKERS=3
RUN_NAME=replication                    # RESULTS lines: system <TAB> round <TAB> metric <TAB> value
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=sluice-bench/peer/cluster-lib.sh
source "$SCRIPT_DIR/cluster-lib.sh"

# ---- the steps ----------------------------------------------------------------------------------------------------
compile_probe() { compile_probes ReplicationProbe.java; }
probe() { run_probe ReplicationProbe "$@"; } # outfile seconds mode args... -> its RESULT line

create_topic() { # system round topic partitions seconds [metric-prefix] -> 0 when every partition is led
  local sys="$1" round="$2" topic="$3" partitions="$4" seconds="$5" res
  res="$(probe "$RUN_DIR/$sys-r$round-create-$topic.out" $((seconds + 60)) create "$BOOTSTRAP" "$topic" "$partitions" \
    "$RF" "$MIN_INSYNC" $((seconds * 1000)))"
  log "$sys round $round: create $topic ($partitions partitions, RF $RF, min.insync.replicas=$MIN_INSYNC): ${res#RESULT }"
  [[ "$(field "$res" create_ms)" =~ ^[0-9]+$ ]] || { record "$sys" "$round" "error_create_$topic" "${res#RESULT }"; return 1; }
  [[ -z "${6:-}" ]] || { record "$sys" "$round" "${6}_create_ms" "$(field "$res" create_ms)"
    record "$sys" "$round" "${6}_full_isr_at_create" "$(field "$res" full_isr)"; }
}

# The broker error codes a producer retried (its WARN lines "Error: CODE. Error Message: ..."), with counts and the
# first message: "NOT_ENOUGH_REPLICAS (33 times, e.g. acks=all needs ...)".
broker_errors() { # producer-output-file
  { grep -oE 'Error: [A-Z_]+\. Error Message: .*\(org\.apache' "$1" || true; } | sed -E 's/^Error: //; s/ \(org\.apache$//' \
    | awk '{ code = $1; sub(/\.$/, "", code); n[code]++; if (!(code in msg)) { m = $0; sub(/^[^ ]+ Error Message: /, "", m); msg[code] = m } }
           END { sep = ""; for (c in n) { printf "%s%s (%d times, e.g. %s)", sep, c, n[c], msg[c]; sep = "; " } }'
}

produce_phase() { # system round
  local sys="$1" round="$2" topic="perf-r$2" res out summary pids=() b0 c0 j0 b1 c1 j1 t0 t1 id
  create_topic "$sys" "$round" "$topic" "$PARTITIONS" 120 || return 0
  # One acknowledged record first: a cluster that cannot meet acks=all with this min.insync.replicas says so in
  # seconds with the broker's error, instead of ProducerPerformance retrying for delivery.timeout.ms per batch.
  if [[ "$PREFLIGHT" == 1 ]]; then
    res="$(probe "$RUN_DIR/$sys-r$round-preflight.out" 90 preflight "$BOOTSTRAP" "$topic" "$ACKS" "$COMPRESSION" 30000)"
  else
    res="RESULT ok=true skipped"
  fi
  if [[ "$(field "$res" ok)" != true ]]; then
    # The producer retries a retriable broker error (NOT_ENOUGH_REPLICAS) until the delivery timeout and then reports
    # only the timeout; its WARN lines name the broker's error codes.
    local codes
    codes="$(broker_errors "$RUN_DIR/$sys-r$round-preflight.out")"
    log "$sys round $round: one record with acks=$ACKS was not acknowledged: $(error_of "$res")${codes:+; broker said: $codes}"
    record "$sys" "$round" error_produce "preflight (one record, acks=$ACKS, min.insync.replicas=$MIN_INSYNC) not acknowledged: $(error_of "$res")${codes:+; broker errors the producer retried: $codes}; ProducerPerformance not run (PREFLIGHT=0 runs it anyway, bounded by STEP_TIMEOUT)"
    return 0
  fi
  for id in $(seq 1 "$BROKERS"); do pids+=("${BROKER_PIDS[$id]}"); done
  if (( WARMUP_RECORDS > 0 )); then
    log "$sys round $round: warm-up, ProducerPerformance $WARMUP_RECORDS records (not measured)"
    run_step "$STEP_TIMEOUT" "$RUN_DIR/$sys-r$round-warmup.out" "$JAVA" "${TOOL_JVM_OPTS[@]}" "$LOG4J_OPT" \
      -cp "$KAFKA_LIB/*" org.apache.kafka.tools.ProducerPerformance --topic "$topic" --num-records "$WARMUP_RECORDS" \
      --record-size "$RECORD_SIZE" --throughput -1 --producer-props "bootstrap.servers=$BOOTSTRAP" "acks=$ACKS" \
      "compression.type=$COMPRESSION" "linger.ms=$LINGER_MS" || log "$sys round $round: warm-up failed (exit $?)"
  fi
  out="$RUN_DIR/$sys-r$round-producer.out"
  record "$sys" "$round" load1_before "$(cut -d' ' -f1 /proc/loadavg)"
  log "$sys round $round: ProducerPerformance $RECORDS x $RECORD_SIZE B, acks=$ACKS, $COMPRESSION, linger.ms=$LINGER_MS"
  b0="$(cpu_ticks "${pids[@]}")"; c0="$(cpu_ticks "${COORD_PIDS[@]}")"; j0="$(jit_ticks "${pids[@]}")"; t0="$(date +%s%N)"
  local rc=0
  run_step "$STEP_TIMEOUT" "$out" "$JAVA" "${TOOL_JVM_OPTS[@]}" "$LOG4J_OPT" -cp "$KAFKA_LIB/*" \
    org.apache.kafka.tools.ProducerPerformance --topic "$topic" --num-records "$RECORDS" --record-size "$RECORD_SIZE" \
    --throughput -1 --producer-props "bootstrap.servers=$BOOTSTRAP" "acks=$ACKS" "compression.type=$COMPRESSION" \
    "linger.ms=$LINGER_MS" || rc=$?
  b1="$(cpu_ticks "${pids[@]}")"; c1="$(cpu_ticks "${COORD_PIDS[@]}")"; j1="$(jit_ticks "${pids[@]}")"; t1="$(date +%s%N)"
  for id in $(seq 1 "$BROKERS"); do
    kill -0 "${BROKER_PIDS[$id]}" 2>/dev/null || record "$sys" "$round" error_broker_died "broker $id died during the producer run"
  done
  local errors
  errors="$(grep -oE '[A-Za-z.]+(Exception|Error): [^(]{0,160}' "$out" | sort | uniq -c | sort -rn | head -n 3 | sed 's/^ *//' | tr '\n' ';' || true)"
  # Final line: "N records sent, R records/sec (M MB/sec), A ms avg latency, X ms max latency, p50 ms 50th,
  #              p95 ms 95th, p99 ms 99th, p999 ms 99.9th."
  summary="$(grep -E '^[0-9]+ records sent, .* 99\.9th' "$out" | tail -n 1 || true)"
  if [[ $rc -ne 0 || -z "$summary" ]]; then
    local why="exit code $rc" codes
    [[ $rc -eq 124 || $rc -eq 137 ]] && why="timed out after ${STEP_TIMEOUT}s"
    codes="$(broker_errors "$out")"
    log "$sys round $round: ProducerPerformance gave no result ($why); client errors: ${errors:-none}; broker errors retried: ${codes:-none}; last lines:"
    tail -n 3 "$out" >&2
    record "$sys" "$round" error_produce "ProducerPerformance $why${errors:+; client errors: $errors}${codes:+; broker errors the producer retried: $codes}"
    return 0
  fi
  log "$sys round $round: $summary"
  [[ -z "$errors" ]] || { log "$sys round $round: errors in the producer output: $errors"; record "$sys" "$round" producer_errors "$errors"; }
  local re='^([0-9]+) records sent, ([0-9.]+) records/sec \(([0-9.]+) MB/sec\), ([0-9.]+) ms avg latency, ([0-9.]+) ms max latency, ([0-9]+) ms 50th, ([0-9]+) ms 95th, ([0-9]+) ms 99th, ([0-9]+) ms 99.9th'
  if [[ "$summary" =~ $re ]]; then
    record "$sys" "$round" records "${BASH_REMATCH[1]}"
    record "$sys" "$round" records_per_s "${BASH_REMATCH[2]}"
    record "$sys" "$round" mb_per_s "${BASH_REMATCH[3]}"
    record "$sys" "$round" avg_ms "${BASH_REMATCH[4]}"
    record "$sys" "$round" max_ms "${BASH_REMATCH[5]}"
    record "$sys" "$round" p50_ms "${BASH_REMATCH[6]}"
    record "$sys" "$round" p95_ms "${BASH_REMATCH[7]}"
    record "$sys" "$round" p99_ms "${BASH_REMATCH[8]}"
    record "$sys" "$round" p999_ms "${BASH_REMATCH[9]}"
  fi
  record "$sys" "$round" wall_s "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')"
  record "$sys" "$round" broker_cpu_s "$(ticks_to_s $((b1 - b0)))"
  record "$sys" "$round" coord_cpu_s "$(ticks_to_s $((c1 - c0)))"
  record "$sys" "$round" broker_jit_s "$(ticks_to_s $((j1 - j0)))"
  record "$sys" "$round" load1_after "$(cut -d' ' -f1 /proc/loadavg)"
  log "$sys round $round: broker CPU $(ticks_to_s $((b1 - b0))) s, coordination CPU $(ticks_to_s $((c1 - c0))) s"
}

failover_step() { # system round KILL|TERM
  local sys="$1" round="$2" signal="$3" res prefix
  prefix="$([[ $signal == KILL ]] && echo kill || echo shutdown)"
  create_topic "$sys" "$round" failover "$FAILOVER_PARTITIONS" 300 "$prefix" || return 0
  res="$(probe "$RUN_DIR/$sys-r$round-$prefix.out" $((FAILOVER_TIMEOUT + 120)) failover "$BOOTSTRAP" failover "$signal" \
    $((FAILOVER_TIMEOUT * 1000)) "$POLL_MS" "$AVOID_CONTROLLER" "$(broker_pid_list)")"
  log "$sys round $round: SIG$signal: ${res#RESULT }"
  grep -v '^RESULT' "$RUN_DIR/$sys-r$round-$prefix.out" | grep -E '^leaders before|^every partition' | sed "s/^/  /" >&2 || true
  local key
  for key in victim victim_led partitions controller exit_ms all_led_ms remaining; do
    [[ -z "$(field "$res" "$key")" ]] || record "$sys" "$round" "${prefix}_$key" "$(field "$res" "$key")"
  done
  [[ -z "$(error_of "$res")" ]] || record "$sys" "$round" "error_$prefix" "$(error_of "$res")"
}

run_system() { # system round
  local sys="$1" round="$2" failover=0
  (( round <= FAILOVER_ROUNDS )) && failover=1
  if has_phase produce || { has_phase kill && (( failover )); }; then
    log "== $sys, round $round: cluster for the producer run$( (( failover )) && has_phase kill && echo ' and the SIGKILL failover')"
    if start_cluster "$sys" "$RUN_DIR/$sys-r$round-a"; then
      has_phase produce && produce_phase "$sys" "$round"
      (( failover )) && has_phase kill && failover_step "$sys" "$round" KILL
    else
      record "$sys" "$round" error_cluster "cluster did not start (logs: $KEEP_DIR/$sys-r$round-a-*)"
    fi
    stop_cluster "$sys-r$round-a"
    [[ "$KEEP_DATA" == 1 ]] || rm -rf "$RUN_DIR/$sys-r$round-a"
  fi
  if (( failover )) && has_phase shutdown; then
    log "== $sys, round $round: fresh cluster for the controlled shutdown"
    if start_cluster "$sys" "$RUN_DIR/$sys-r$round-b"; then
      failover_step "$sys" "$round" TERM
    else
      record "$sys" "$round" error_cluster "cluster did not start (logs: $KEEP_DIR/$sys-r$round-b-*)"
    fi
    stop_cluster "$sys-r$round-b"
    [[ "$KEEP_DATA" == 1 ]] || rm -rf "$RUN_DIR/$sys-r$round-b"
  fi
}

# ---- the run ------------------------------------------------------------------------------------------------------
STARTED_AT="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
fetch_kafka
compile_probe
rm -rf "$KEEP_DIR"; mkdir -p "$KEEP_DIR"
: >"$RESULTS"
systems=(kafka sluice)
[[ "$ORDER" == sluice-first ]] && systems=(sluice kafka)
for round in $(seq 1 "$ROUNDS"); do
  for sys in "${systems[@]}"; do
    [[ "$ONLY" == both || "$ONLY" == "$sys" ]] || continue
    run_system "$sys" "$round"
  done
done
LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)"
cp "$RUN_DIR"/*.out "$KEEP_DIR"/ 2>/dev/null || true
cp "$RESULTS" "$KEEP_DIR/results.tsv"

# ---- the report ---------------------------------------------------------------------------------------------------
CPU_MODEL="$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//')"
export RESULTS STAMP WORK_DIR STARTED_AT LOAD_BEFORE LOAD_AFTER COMMAND CPU_MODEL KAFKA_VERSION KAFKA_MODE RECORDS \
  RECORD_SIZE PARTITIONS RF MIN_INSYNC ACKS COMPRESSION LINGER_MS ROUNDS ORDER FAILOVER_PARTITIONS SESSION_TIMEOUT_MS \
  POLL_MS BROKER_HEAP COORD_HEAP AVOID_CONTROLLER KEEP_DIR PHASES FAILOVER_TIMEOUT WARMUP_RECORDS
NPROC="$(nproc)"; JAVA_VERSION="$("$JAVA" -version 2>&1 | head -n 1)"; KERNEL="$(uname -r)"
export NPROC JAVA_VERSION KERNEL
python3 - <<'PY'
import csv, json, os, statistics

e = os.environ
rows = []
with open(e["RESULTS"]) as f:
    for line in f:
        parts = line.rstrip("\n").split("\t", 3)
        if len(parts) == 4:
            rows.append({"system": parts[0], "round": int(parts[1]), "metric": parts[2], "value": parts[3]})

def num(v):
    try:
        return float(v)
    except ValueError:
        return None

# Derived per round: CPU seconds per million records, brokers only and with the coordination processes.
by = {}
for r in rows:
    by.setdefault((r["system"], r["round"]), {})[r["metric"]] = r["value"]
for (system, rnd), m in sorted(by.items()):
    recs = num(m.get("records", ""))
    if recs and "broker_cpu_s" in m:
        b, c = float(m["broker_cpu_s"]), float(m["coord_cpu_s"])
        derived = [("broker_cpu_s_per_m", b / recs * 1e6), ("all_cpu_s_per_m", (b + c) / recs * 1e6)]
        if "broker_jit_s" in m:
            derived.append(("broker_nojit_cpu_s_per_m", (b - float(m["broker_jit_s"])) / recs * 1e6))
        for name, v in derived:
            m[name] = "%.3f" % v
            rows.append({"system": system, "round": rnd, "metric": name, "value": m[name]})

def median(system, metric):
    vals = [num(m[metric]) for (s, _), m in by.items() if s == system and metric in m and num(m[metric]) is not None]
    vals = [v for v in vals if v >= 0] if metric.endswith("_ms") and metric.startswith(("kill", "shutdown")) else vals
    return statistics.median(vals) if vals else None

def fmt(v, digits=1):
    if v is None:
        return "-"
    if abs(v) >= 1000 or float(v).is_integer():
        return "{:,.0f}".format(v)
    return ("{:.%df}" % digits).format(v)

def failed(system, prefixes):
    return any(r["system"] == system and r["metric"].startswith(prefixes) for r in rows)

def cell(system, metric, digits=1):
    v = median(system, metric)
    if v is not None:
        return fmt(v, digits)
    if metric.endswith("_all_led_ms") or metric.endswith("_exit_ms"):
        left = median(system, metric.split("_")[0] + "_remaining")
        if left is not None:
            what = "%d partitions left" % left if metric.endswith("_all_led_ms") else "still running"
            return "none within %s s (%s)" % (e["FAILOVER_TIMEOUT"], what)
    if metric in produce_metrics and failed(system, ("error_produce", "error_cluster", "error_create_perf")):
        return "failed (see Errors)"
    return "-"

def ratio(s, k):
    return "-" if s is None or k is None or k == 0 else "%.2f" % (s / k)

combined = e["KAFKA_MODE"] == "combined"
lines = []
P = lines.append
P("## Replication comparison: Sluice vs Apache Kafka %s, %s" % (e["KAFKA_VERSION"], e["STARTED_AT"]))
P("")
P("Machine: %s cores (%s), kernel %s, %s; load average before %s, after %s." % (
    e["NPROC"], e["CPU_MODEL"], e["KERNEL"], e["JAVA_VERSION"], e["LOAD_BEFORE"], e["LOAD_AFTER"]))
P("")
P("Command: `%s`" % e["COMMAND"])
P("")
P("Settings: 3 brokers each; Kafka KRaft %s; Sluice 3 brokers + one `sluice zookeeper`. Topic %s partitions, RF %s, "
  "min.insync.replicas=%s. ProducerPerformance (kafka-tools %s) %s records x %s B, acks=%s, compression.type=%s, "
  "linger.ms=%s, --throughput -1, other producer settings default%s. Rounds: %s, order %s (alternating). Broker heap %s, "
  "coordination heap %s. Session timeout %s ms (Kafka broker.session.timeout.ms, Sluice zookeeper.session.timeout.ms). "
  "Values are medians over the rounds that gave one." % (
    "combined mode (3 broker+controller nodes, 3-voter quorum)" if combined else
    "separate mode (one controller-only node + 3 broker-only nodes)", e["PARTITIONS"], e["RF"], e["MIN_INSYNC"],
    e["KAFKA_VERSION"], "{:,}".format(int(e["RECORDS"])), e["RECORD_SIZE"], e["ACKS"], e["COMPRESSION"],
    e["LINGER_MS"], "; a warm-up run of %s records before each measured one" % e["WARMUP_RECORDS"]
    if int(e["WARMUP_RECORDS"]) > 0 else "", e["ROUNDS"], e["ORDER"], e["BROKER_HEAP"], e["COORD_HEAP"], e["SESSION_TIMEOUT_MS"]))
P("")
P("CPU: utime+stime of the processes from /proc/<pid>/stat, before and after the producer run, in seconds per million "
  "records. 'Brokers' = the three broker JVMs%s; 'with coordination' adds Sluice's ZooKeeper%s; 'without JIT' leaves "
  "out the brokers' C1/C2 compiler threads (a fresh JVM compiles its hot paths during a short run; one in service "
  "has)." % (
    " (in combined mode these also run Kafka's controllers)" if combined else "",
    "" if combined else " and Kafka's controller JVM"))
P("")
targets = {"records_per_s": ("≥ 1.0", lambda r: r >= 1.0), "p99_ms": ("≤ 1.0", lambda r: r <= 1.0),
           "broker_cpu_s_per_m": ("≤ 0.6", lambda r: r <= 0.6)}
phases = e["PHASES"].split(",")
if "produce" in phases:
    P("| produce (acks=%s) | Apache Kafka | Sluice | Sluice / Kafka | target | met |" % e["ACKS"])
    P("|---|---|---|---|---|---|")
produce_rows = (("records_per_s", "records/s", 0), ("mb_per_s", "MB/s", 2), ("avg_ms", "avg latency ms", 1),
                              ("p50_ms", "p50 latency ms", 0), ("p95_ms", "p95 latency ms", 0),
                              ("p99_ms", "p99 latency ms", 0), ("p999_ms", "p99.9 latency ms", 0),
                              ("max_ms", "max latency ms", 0),
                              ("broker_cpu_s_per_m", "broker CPU s / M records", 3),
                              ("broker_nojit_cpu_s_per_m", "broker CPU s / M records without JIT", 3),
                              ("all_cpu_s_per_m", "broker + coordination CPU s / M records", 3))
produce_metrics = {m for m, _, _ in produce_rows}
for metric, label, digits in produce_rows if "produce" in phases else ():
    k, s = median("kafka", metric), median("sluice", metric)
    r = ratio(s, k)
    target, ok = targets.get(metric, ("", None))
    met = "-" if ok is None or r == "-" else ("yes" if ok(float(r)) else "no")
    P("| %s | %s | %s | %s | %s | %s |" % (label, cell("kafka", metric, digits), cell("sluice", metric, digits), r,
                                           target, met if target else ""))
if "produce" in phases:
    P("")
    P("Latency under --throughput -1 is mostly time in the producer's own queue: send() runs until buffer.memory "
      "(32 MiB of zstd batches, several hundred thousand 100-byte records) is full, so each record waits about "
      "(records queued) / (records/s); higher throughput alone lowers it, and in a run not much longer than that "
      "queue the percentiles approach the run's length.")
P("")
failover_rows = (("kill_victim_led", "SIGKILL: partitions the killed broker led"),
                      ("kill_all_led_ms", "SIGKILL → every partition led by a live broker, ms"),
                      ("kill_remaining", "SIGKILL: partitions still without a live leader at the end"),
                      ("shutdown_victim_led", "SIGTERM: partitions the stopped broker led"),
                      ("shutdown_exit_ms", "SIGTERM → process exited (controlled shutdown), ms"),
                      ("shutdown_all_led_ms", "SIGTERM → every partition led by a live broker, ms"),
                      ("shutdown_remaining", "SIGTERM: partitions still without a live leader at the end"))
if "kill" in phases or "shutdown" in phases:
    P("| failover (%s partitions, RF %s) | Apache Kafka | Sluice | Sluice / Kafka |" % (e["FAILOVER_PARTITIONS"], e["RF"]))
    P("|---|---|---|---|")
for metric, label in failover_rows:
    if metric.split("_")[0] not in phases:
        continue
    k, s = median("kafka", metric), median("sluice", metric)
    P("| %s | %s | %s | %s |" % (label, cell("kafka", metric), cell("sluice", metric),
                                 "" if "remaining" in metric or "led" == metric[-3:] else ratio(s, k)))
if "kill" in phases or "shutdown" in phases:
    P("")
    P("Failover times run from just before the signal to the first Metadata response (Admin describeTopics, polled "
      "every %s ms from the other brokers) in which every partition's leader is a broker other than the stopped one; "
      "'exited' is when /proc shows the process gone. The stopped broker is the one leading the most partitions "
      "of the topic%s; the controlled shutdown runs on a freshly started cluster." % (
        e["POLL_MS"], ", not the active controller" if e["AVOID_CONTROLLER"] == "true" else ""))
P("")
P("Per round:")
P("")
P("| system | round | metric | value |")
P("|---|---|---|---|")
for r in sorted(rows, key=lambda r: (r["round"], r["system"], r["metric"])):
    P("| %s | %d | %s | %s |" % (r["system"], r["round"], r["metric"], r["value"].replace("|", "/")))
errors = [r for r in rows if r["metric"].startswith("error")]
if errors:
    P("")
    P("Errors:")
    for r in errors:
        P("- %s round %d, %s: %s" % (r["system"], r["round"], r["metric"], r["value"]))
P("")
P("Tool output and cluster logs: %s/" % e["KEEP_DIR"])
report = "\n".join(lines) + "\n"
print("\n" + report)

base = os.path.join(e["WORK_DIR"], "replication-" + e["STAMP"])
with open(base + ".md", "w") as f:
    f.write(report)
with open(base + ".csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["system", "round", "metric", "value"])
    for r in rows:
        w.writerow([r["system"], r["round"], r["metric"], r["value"]])
summary = {m: {"kafka": median("kafka", m), "sluice": median("sluice", m)} for m in sorted({r["metric"] for r in rows})
           if not m.startswith("error") and m != "producer_errors"}
for m, v in summary.items():
    v["ratio"] = None if v["kafka"] in (None, 0) or v["sluice"] is None else v["sluice"] / v["kafka"]
doc = {"started_at": e["STARTED_AT"], "command": e["COMMAND"],
       "machine": {"nproc": int(e["NPROC"]), "cpu_model": e["CPU_MODEL"], "kernel": e["KERNEL"], "java": e["JAVA_VERSION"],
                   "load_before": e["LOAD_BEFORE"], "load_after": e["LOAD_AFTER"]},
       "settings": {k: e[k] for k in ("KAFKA_VERSION", "KAFKA_MODE", "RECORDS", "RECORD_SIZE", "PARTITIONS", "RF",
                                      "MIN_INSYNC", "ACKS", "COMPRESSION", "LINGER_MS", "ROUNDS", "ORDER", "PHASES",
                                      "FAILOVER_PARTITIONS", "SESSION_TIMEOUT_MS", "POLL_MS", "BROKER_HEAP",
                                      "COORD_HEAP", "AVOID_CONTROLLER")},
       "medians": summary, "rows": rows}
with open(base + ".json", "w") as f:
    json.dump(doc, f, indent=2)
for ext in (".md", ".csv", ".json"):
    latest = os.path.join(e["WORK_DIR"], "replication-latest" + ext)
    with open(base + ext) as src, open(latest, "w") as dst:
        dst.write(src.read())
print("Written: %s.{md,csv,json} (and replication-latest.*)" % base)
PY
