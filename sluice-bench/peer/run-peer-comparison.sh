#!/usr/bin/env bash
# Side-by-side throughput: Apache Kafka's own ProducerPerformance / ConsumerPerformance (kafka-tools 3.9.1) against
# (1) Apache Kafka 3.9.1 in KRaft mode, single node, started from Maven Central jars, and (2) a Sluice broker,
# on this machine, with the same settings. Prints a markdown table (records/s, MB/s, Sluice/Kafka ratio).
#
# Usage: sluice-bench/peer/run-peer-comparison.sh [--only kafka|sluice|both]
# Environment overrides: RECORDS (2000000) RECORD_SIZE (100) PARTITIONS (4) COMPRESSION (zstd) LINGER_MS (5)
#   ACKS (1) BROKER_HEAP (1g) STEP_TIMEOUT (600 seconds per tool run) ORDER (kafka-first | sluice-first)
# Needs: JDK 17, Maven (reaches Maven Central once), python3 (free port), coreutils timeout. Sluice must be built:
#   mvn -B -pl sluice-cli -am install -DskipTests
set -euo pipefail

ONLY=both
while [[ $# -gt 0 ]]; do
  case "$1" in
    --only) ONLY="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (try --help)" >&2; exit 2 ;;
  esac
done
case "$ONLY" in kafka|sluice|both) ;; *) echo "--only must be kafka, sluice or both, was '$ONLY'" >&2; exit 2 ;; esac

RECORDS="${RECORDS:-2000000}"
RECORD_SIZE="${RECORD_SIZE:-100}"
PARTITIONS="${PARTITIONS:-4}"
COMPRESSION="${COMPRESSION:-zstd}"
LINGER_MS="${LINGER_MS:-5}"
ACKS="${ACKS:-1}"
BROKER_HEAP="${BROKER_HEAP:-1g}"
STEP_TIMEOUT="${STEP_TIMEOUT:-600}"
ORDER="${ORDER:-kafka-first}"
case "$ORDER" in kafka-first|sluice-first) ;; *) echo "ORDER must be kafka-first or sluice-first, was '$ORDER'" >&2; exit 2 ;; esac
KAFKA_VERSION=3.9.1
READY_TIMEOUT=120

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$SCRIPT_DIR/../.." && pwd)"
WORK_DIR="$SCRIPT_DIR/target"
KAFKA_LIB="$WORK_DIR/kafka-$KAFKA_VERSION-lib"
SLUICE_CLI_DIR="$REPO_DIR/sluice-cli/target"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
BROKER_JVM_OPTS=(-Xms"$BROKER_HEAP" -Xmx"$BROKER_HEAP" -XX:+UseG1GC -XX:MaxGCPauseMillis=20)
TOOL_JVM_OPTS=(-Xmx1g -XX:+UseG1GC)

mkdir -p "$WORK_DIR"
RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/sluice-peer.XXXXXX")"
STARTED_PIDS=()

cleanup() {
  local pid
  for pid in "${STARTED_PIDS[@]:-}"; do
    [[ -n "$pid" ]] || continue
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$RUN_DIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# (a) Apache Kafka jars from Maven Central through a throwaway pom.
# shellcheck source=kafka-lib.sh
source "$SCRIPT_DIR/kafka-lib.sh"

write_log4j() {
  cat > "$RUN_DIR/log4j.properties" <<'L4J'
log4j.rootLogger=WARN, stdout
log4j.logger.kafka.server.KafkaRaftServer=INFO
log4j.logger.kafka.Kafka=INFO
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
L4J
}

kafka_java() { "$JAVA" -Dlog4j.configuration="file:$RUN_DIR/log4j.properties" -cp "$KAFKA_LIB/*" "$@"; }

wait_for_line() { # file pattern pid what
  local file="$1" pattern="$2" pid="$3" what="$4" waited=0
  while ! grep -q -- "$pattern" "$file" 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null; then
      log "$what exited before it was ready; last lines of $file:"; tail -n 40 "$file" >&2; return 1
    fi
    if (( waited >= READY_TIMEOUT * 10 )); then
      log "$what not ready after ${READY_TIMEOUT}s; last lines of $file:"; tail -n 40 "$file" >&2; return 1
    fi
    sleep 0.1; waited=$((waited + 1))
  done
}

# (b) Kafka 3.9.1, KRaft, single node (broker + controller in one process).
start_kafka() {
  local port controller_port data
  port="$(free_port)"; controller_port="$(free_port)"
  data="$RUN_DIR/kafka-data"
  mkdir -p "$data"
  cat > "$RUN_DIR/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$data
num.partitions=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
PROPS
  local cluster_id
  cluster_id="$(kafka_java kafka.tools.StorageTool random-uuid | tail -n 1)"
  kafka_java kafka.tools.StorageTool format -t "$cluster_id" -c "$RUN_DIR/server.properties" >"$RUN_DIR/kafka-format.log" 2>&1 \
    || { cat "$RUN_DIR/kafka-format.log" >&2; return 1; }
  kafka_java "${BROKER_JVM_OPTS[@]}" kafka.Kafka "$RUN_DIR/server.properties" >"$RUN_DIR/kafka.log" 2>&1 &
  BROKER_PID=$!; STARTED_PIDS+=("$BROKER_PID")
  wait_for_line "$RUN_DIR/kafka.log" "Kafka Server started" "$BROKER_PID" "Kafka"
  BOOTSTRAP="127.0.0.1:$port"
  log "Kafka $KAFKA_VERSION (KRaft) pid $BROKER_PID listening on $BOOTSTRAP"
}

# (d) Sluice, from the built sluice-cli distribution.
start_sluice() {
  if [[ ! -f "$SLUICE_CLI_DIR/sluice-cli.jar" || ! -d "$SLUICE_CLI_DIR/lib" ]]; then
    log "Sluice is not built ($SLUICE_CLI_DIR/sluice-cli.jar missing): mvn -B -pl sluice-cli -am install -DskipTests"
    return 1
  fi
  local port data
  port="$(free_port)"
  data="$RUN_DIR/sluice-data"
  "$JAVA" "${BROKER_JVM_OPTS[@]}" -cp "$SLUICE_CLI_DIR/sluice-cli.jar:$SLUICE_CLI_DIR/lib/*" io.sluice.cli.SluiceCli \
    server --data-dir "$data" --listen "127.0.0.1:$port" \
    --override "num.partitions=1" --override "group.initial.rebalance.delay.ms=0" >"$RUN_DIR/sluice.log" 2>&1 &
  BROKER_PID=$!; STARTED_PIDS+=("$BROKER_PID")
  wait_for_line "$RUN_DIR/sluice.log" "started, listening on" "$BROKER_PID" "Sluice"
  BOOTSTRAP="127.0.0.1:$port"
  log "Sluice pid $BROKER_PID listening on $BOOTSTRAP"
}

stop_broker() {
  if kill -0 "$BROKER_PID" 2>/dev/null; then
    kill -TERM "$BROKER_PID"
    for _ in $(seq 1 60); do kill -0 "$BROKER_PID" 2>/dev/null || break; sleep 1; done
    kill -KILL "$BROKER_PID" 2>/dev/null || true
  fi
  wait "$BROKER_PID" 2>/dev/null || true
}

# (c) The same tool runs against whichever broker is up. Sets PRODUCE_* and CONSUME_* (or "failed").
run_tools() { # name
  local name="$1" topic="perf-$1" out
  PRODUCE_RPS=failed PRODUCE_MBPS=failed CONSUME_RPS=failed CONSUME_MBPS=failed CONSUME_REBALANCE_MS=-
  FETCH_RPS=failed FETCH_MBPS=failed
  out="$RUN_DIR/$name-topic.out"
  if ! timeout "$STEP_TIMEOUT" "$JAVA" "${TOOL_JVM_OPTS[@]}" -Dlog4j.configuration="file:$RUN_DIR/log4j.properties" \
      -cp "$KAFKA_LIB/*" org.apache.kafka.tools.TopicCommand --bootstrap-server "$BOOTSTRAP" --create \
      --topic "$topic" --partitions "$PARTITIONS" --replication-factor 1 >"$out" 2>&1; then
    log "$name: topic creation failed:"; tail -n 20 "$out" >&2; return 0
  fi
  out="$RUN_DIR/$name-producer.out"
  log "$name: ProducerPerformance $RECORDS x $RECORD_SIZE B, $COMPRESSION, linger.ms=$LINGER_MS, acks=$ACKS"
  if timeout "$STEP_TIMEOUT" "$JAVA" "${TOOL_JVM_OPTS[@]}" -Dlog4j.configuration="file:$RUN_DIR/log4j.properties" \
      -cp "$KAFKA_LIB/*" org.apache.kafka.tools.ProducerPerformance --topic "$topic" --num-records "$RECORDS" \
      --record-size "$RECORD_SIZE" --throughput -1 --producer-props "bootstrap.servers=$BOOTSTRAP" \
      "compression.type=$COMPRESSION" "linger.ms=$LINGER_MS" "acks=$ACKS" >"$out" 2>&1; then
    # "2000000 records sent, 512345.6 records/sec (48.86 MB/sec), ..."
    local summary
    summary="$(grep -E "^$RECORDS records sent" "$out" | tail -n 1 || true)"
    if [[ -n "$summary" ]]; then
      PRODUCE_RPS="$(sed -E 's/.*sent, ([0-9.]+) records\/sec.*/\1/' <<<"$summary")"
      PRODUCE_MBPS="$(sed -E 's/.*\(([0-9.]+) MB\/sec\).*/\1/' <<<"$summary")"
      log "$name: $summary"
    else
      log "$name: no summary line in producer output:"; tail -n 20 "$out" >&2
    fi
  else
    log "$name: ProducerPerformance failed or timed out after ${STEP_TIMEOUT}s:"; tail -n 20 "$out" >&2
    return 0
  fi
  out="$RUN_DIR/$name-consumer.out"
  log "$name: ConsumerPerformance $RECORDS records"
  if timeout "$STEP_TIMEOUT" "$JAVA" "${TOOL_JVM_OPTS[@]}" -Dlog4j.configuration="file:$RUN_DIR/log4j.properties" \
      -cp "$KAFKA_LIB/*" org.apache.kafka.tools.ConsumerPerformance --bootstrap-server "$BOOTSTRAP" \
      --topic "$topic" --messages "$RECORDS" --timeout 60000 --group "perf-$name-$$" >"$out" 2>&1; then
    # header: start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec,
    #         rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec
    local row
    row="$(grep -E '^[0-9]{4}-' "$out" | tail -n 1 || true)"
    if [[ -n "$row" ]]; then
      CONSUME_MBPS="$(awk -F', *' '{print $4}' <<<"$row")"
      CONSUME_RPS="$(awk -F', *' '{print $6}' <<<"$row")"
      CONSUME_REBALANCE_MS="$(awk -F', *' '{print $7}' <<<"$row")"
      FETCH_MBPS="$(awk -F', *' '{print $9}' <<<"$row")"
      FETCH_RPS="$(awk -F', *' '{print $10}' <<<"$row")"
      log "$name: consumer $row"
    else
      log "$name: no result row in consumer output:"; tail -n 20 "$out" >&2
    fi
  else
    log "$name: ConsumerPerformance failed or timed out after ${STEP_TIMEOUT}s:"; tail -n 20 "$out" >&2
  fi
}

keep_logs() { # name
  local keep="$WORK_DIR/last-run"
  mkdir -p "$keep"
  cp "$RUN_DIR"/"$1"*.out "$keep"/ 2>/dev/null || true
  cp "$RUN_DIR/$1.log" "$keep/$1-broker.log" 2>/dev/null || true
}

ratio() { # sluice kafka
  if [[ "$1" =~ ^[0-9.]+$ && "$2" =~ ^[0-9.]+$ ]]; then
    awk -v s="$1" -v k="$2" 'BEGIN { if (k > 0) printf "%.2f", s / k; else print "-" }'
  else
    echo "-"
  fi
}

LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
fetch_kafka
write_log4j
rm -rf "$WORK_DIR/last-run"

K_PRPS=- K_PMBPS=- K_CRPS=- K_CMBPS=- K_REB=- K_FRPS=- K_FMBPS=-
S_PRPS=- S_PMBPS=- S_CRPS=- S_CMBPS=- S_REB=- S_FRPS=- S_FMBPS=-
run_kafka() {
  start_kafka
  run_tools kafka
  K_PRPS=$PRODUCE_RPS K_PMBPS=$PRODUCE_MBPS K_CRPS=$CONSUME_RPS K_CMBPS=$CONSUME_MBPS K_REB=$CONSUME_REBALANCE_MS
  K_FRPS=$FETCH_RPS K_FMBPS=$FETCH_MBPS
  stop_broker
  keep_logs kafka
}
run_sluice() {
  if start_sluice; then
    run_tools sluice
    S_PRPS=$PRODUCE_RPS S_PMBPS=$PRODUCE_MBPS S_CRPS=$CONSUME_RPS S_CMBPS=$CONSUME_MBPS S_REB=$CONSUME_REBALANCE_MS
    S_FRPS=$FETCH_RPS S_FMBPS=$FETCH_MBPS
    stop_broker
  else
    S_PRPS=failed S_PMBPS=failed S_CRPS=failed S_CMBPS=failed
  fi
  keep_logs sluice
}
if [[ "$ORDER" == kafka-first ]]; then
  [[ "$ONLY" == sluice ]] || run_kafka
  [[ "$ONLY" == kafka ]] || run_sluice
else
  [[ "$ONLY" == kafka ]] || run_sluice
  [[ "$ONLY" == sluice ]] || run_kafka
fi

CPU="$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//')"
cat <<TABLE

Peer comparison, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores ($CPU), $("$JAVA" -version 2>&1 | head -n 1)
Settings: $RECORDS records x $RECORD_SIZE B, topic with $PARTITIONS partitions (RF 1), producer compression.type=$COMPRESSION
linger.ms=$LINGER_MS acks=$ACKS (other producer settings default), --throughput -1; consumer: ConsumerPerformance
defaults (group consumer); broker JVM ${BROKER_JVM_OPTS[*]}; tools from kafka-tools $KAFKA_VERSION; order $ORDER;
load average before the run: $LOAD_BEFORE.

| run | Apache Kafka $KAFKA_VERSION (KRaft) | Sluice | Sluice / Kafka |
|---|---|---|---|
| produce records/s | $K_PRPS | $S_PRPS | $(ratio "$S_PRPS" "$K_PRPS") |
| produce MB/s | $K_PMBPS | $S_PMBPS | $(ratio "$S_PMBPS" "$K_PMBPS") |
| consume records/s | $K_CRPS | $S_CRPS | $(ratio "$S_CRPS" "$K_CRPS") |
| consume MB/s | $K_CMBPS | $S_CMBPS | $(ratio "$S_CMBPS" "$K_CMBPS") |
| consume, fetch time only, records/s | $K_FRPS | $S_FRPS | $(ratio "$S_FRPS" "$K_FRPS") |
| consume, fetch time only, MB/s | $K_FMBPS | $S_FMBPS | $(ratio "$S_FMBPS" "$K_FMBPS") |
| consumer group join ms (inside the consume time) | $K_REB | $S_REB | |

Tool output and broker logs of this run: $WORK_DIR/last-run/
TABLE
