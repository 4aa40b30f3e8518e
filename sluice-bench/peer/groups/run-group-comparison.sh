#!/usr/bin/env bash
# Consumer-group coordinator side by side: GroupBench.java (Java client 3.9.1) against (1) Apache Kafka 3.9.1 in
# KRaft mode, single node, from Maven Central jars, and (2) a Sluice broker, on this machine, same settings:
# rebalance time of a 10-member group (eager range and cooperative-sticky: an 11th member joins, then leaves;
# medians of 5 rounds) and commitSync throughput (1 and 8 committing members, each in its own group).
# Prints a markdown table with Sluice/Kafka ratios.
#
# Usage: sluice-bench/peer/groups/run-group-comparison.sh [--only kafka|sluice|both]
# Needs: JDK 17, Maven (reaches Maven Central once), python3 (free port). Sluice must be built:
#   mvn -B -pl sluice-cli -am install -DskipTests
set -euo pipefail

ONLY=both
while [[ $# -gt 0 ]]; do
  case "$1" in
    --only) ONLY="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (try --help)" >&2; exit 2 ;;
  esac
done
case "$ONLY" in kafka|sluice|both) ;; *) echo "--only must be kafka, sluice or both, was '$ONLY'" >&2; exit 2 ;; esac

KAFKA_VERSION=3.9.1
READY_TIMEOUT=120
STEP_TIMEOUT="${STEP_TIMEOUT:-600}"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PEER_DIR="$(cd "$SCRIPT_DIR/.." && pwd)"
REPO_DIR="$(cd "$PEER_DIR/../.." && pwd)"
WORK_DIR="$PEER_DIR/target"
KAFKA_LIB="$WORK_DIR/kafka-$KAFKA_VERSION-lib"
SLUICE_CLI_DIR="$REPO_DIR/sluice-cli/target"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
BROKER_JVM_OPTS=(-Xms1g -Xmx1g -XX:+UseG1GC -XX:MaxGCPauseMillis=20)

mkdir -p "$WORK_DIR"
RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/sluice-groups.XXXXXX")"
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
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }

# shellcheck source=../kafka-lib.sh
source "$PEER_DIR/kafka-lib.sh"

cat > "$RUN_DIR/log4j.properties" <<'L4J'
log4j.rootLogger=WARN, stdout
log4j.logger.kafka.server.KafkaRaftServer=INFO
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
L4J
kafka_java() { "$JAVA" -Dlog4j.configuration="file:$RUN_DIR/log4j.properties" -cp "$KAFKA_LIB/*" "$@"; }

wait_for_line() { # file pattern pid what
  local file="$1" pattern="$2" pid="$3" what="$4" waited=0
  while ! grep -q -- "$pattern" "$file" 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null; then log "$what exited early:"; tail -n 40 "$file" >&2; return 1; fi
    if (( waited >= READY_TIMEOUT * 10 )); then log "$what not ready:"; tail -n 40 "$file" >&2; return 1; fi
    sleep 0.1; waited=$((waited + 1))
  done
}

start_kafka() {
  local port controller_port cluster_id
  port="$(free_port)"; controller_port="$(free_port)"
  mkdir -p "$RUN_DIR/kafka-data"
  cat > "$RUN_DIR/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$RUN_DIR/kafka-data
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
PROPS
  cluster_id="$(kafka_java kafka.tools.StorageTool random-uuid | tail -n 1)"
  kafka_java kafka.tools.StorageTool format -t "$cluster_id" -c "$RUN_DIR/server.properties" >"$RUN_DIR/kafka-format.log" 2>&1 \
    || { cat "$RUN_DIR/kafka-format.log" >&2; return 1; }
  kafka_java "${BROKER_JVM_OPTS[@]}" kafka.Kafka "$RUN_DIR/server.properties" >"$RUN_DIR/kafka.log" 2>&1 &
  BROKER_PID=$!; STARTED_PIDS+=("$BROKER_PID")
  wait_for_line "$RUN_DIR/kafka.log" "Kafka Server started" "$BROKER_PID" "Kafka"
  BOOTSTRAP="127.0.0.1:$port"
  log "Kafka $KAFKA_VERSION pid $BROKER_PID on $BOOTSTRAP"
}

start_sluice() {
  [[ -f "$SLUICE_CLI_DIR/sluice-cli.jar" ]] || { log "Sluice is not built: mvn -B -pl sluice-cli -am install -DskipTests"; return 1; }
  local port
  port="$(free_port)"
  "$JAVA" "${BROKER_JVM_OPTS[@]}" -cp "$SLUICE_CLI_DIR/sluice-cli.jar:$SLUICE_CLI_DIR/lib/*" io.sluice.cli.SluiceCli \
    server --data-dir "$RUN_DIR/sluice-data" --listen "127.0.0.1:$port" \
    --override "group.initial.rebalance.delay.ms=0" >"$RUN_DIR/sluice.log" 2>&1 &
  BROKER_PID=$!; STARTED_PIDS+=("$BROKER_PID")
  wait_for_line "$RUN_DIR/sluice.log" "started, listening on" "$BROKER_PID" "Sluice"
  BOOTSTRAP="127.0.0.1:$port"
  log "Sluice pid $BROKER_PID on $BOOTSTRAP"
}

stop_broker() {
  if kill -0 "$BROKER_PID" 2>/dev/null; then
    kill -TERM "$BROKER_PID"
    for _ in $(seq 1 60); do kill -0 "$BROKER_PID" 2>/dev/null || break; sleep 1; done
    kill -KILL "$BROKER_PID" 2>/dev/null || true
  fi
  wait "$BROKER_PID" 2>/dev/null || true
}

bench() { # name args... ; prints the RESULT line's key=value pairs
  local name="$1"; shift
  local out="$RUN_DIR/$name-$1-${2:-}.out"
  if timeout "$STEP_TIMEOUT" "$JAVA" -Xmx1g -Dlog4j.configuration="file:$RUN_DIR/log4j.properties" -cp "$KAFKA_LIB/*" \
      "$SCRIPT_DIR/GroupBench.java" "$BOOTSTRAP" "$@" >"$out" 2>&1; then
    grep '^RESULT' "$out" | tail -n 1
  else
    log "$name: GroupBench $* failed:"; tail -n 20 "$out" >&2; echo "RESULT failed"
  fi
}

value() { sed -nE "s/.*[ ]$2=([0-9.]+).*/\1/p" <<<"$1"; }
ratio() {
  if [[ "$1" =~ ^[0-9.]+$ && "$2" =~ ^[0-9.]+$ ]]; then awk -v s="$1" -v k="$2" 'BEGIN { if (k > 0) printf "%.2f", s / k; else print "-" }'
  else echo "-"; fi
}

run_all() { # name -> sets R_<metric> variables with prefix $1
  local name="$1" eager coop c1 c8
  eager="$(bench "$name" rebalance eager)"; log "$name: $eager"
  coop="$(bench "$name" rebalance cooperative)"; log "$name: $coop"
  c1="$(bench "$name" commit 1)"; log "$name: $c1"
  c8="$(bench "$name" commit 8)"; log "$name: $c8"
  printf -v "${name}_EAGER_JOIN" '%s' "$(value "$eager" join_median_ms)"
  printf -v "${name}_EAGER_LEAVE" '%s' "$(value "$eager" leave_median_ms)"
  printf -v "${name}_COOP_JOIN" '%s' "$(value "$coop" join_median_ms)"
  printf -v "${name}_COOP_LEAVE" '%s' "$(value "$coop" leave_median_ms)"
  printf -v "${name}_C1" '%s' "$(value "$c1" commits_per_s)"
  printf -v "${name}_C8" '%s' "$(value "$c8" commits_per_s)"
}

fetch_kafka
for v in EAGER_JOIN EAGER_LEAVE COOP_JOIN COOP_LEAVE C1 C8; do printf -v "K_$v" '-'; printf -v "S_$v" '-'; done
if [[ "$ONLY" != sluice ]]; then start_kafka; run_all K; stop_broker; fi
if [[ "$ONLY" != kafka ]]; then start_sluice && { run_all S; stop_broker; }; fi

cat <<TABLE

Group coordinator comparison, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $("$JAVA" -version 2>&1 | head -n 1)
10 members on a 20-partition topic, Java client $KAFKA_VERSION, session.timeout.ms=10000, heartbeat.interval.ms=1000,
group.initial.rebalance.delay.ms=0 on both brokers. Rebalance = time until every member is in one generation and every
partition is owned exactly once (lower is better). Commits = commitSync of one partition per member, 10 s (higher is
better). Sluice fsyncs each commit before answering (flush.messages=1, its default on __consumer_offsets); Kafka
acknowledges once the offsets record is in its page cache.

| metric | Apache Kafka $KAFKA_VERSION | Sluice | Sluice / Kafka |
|---|---|---|---|
| eager: 11th member joins, ms | $K_EAGER_JOIN | $S_EAGER_JOIN | $(ratio "$S_EAGER_JOIN" "$K_EAGER_JOIN") |
| eager: member leaves, ms | $K_EAGER_LEAVE | $S_EAGER_LEAVE | $(ratio "$S_EAGER_LEAVE" "$K_EAGER_LEAVE") |
| cooperative: 11th member joins, ms | $K_COOP_JOIN | $S_COOP_JOIN | $(ratio "$S_COOP_JOIN" "$K_COOP_JOIN") |
| cooperative: member leaves, ms | $K_COOP_LEAVE | $S_COOP_LEAVE | $(ratio "$S_COOP_LEAVE" "$K_COOP_LEAVE") |
| commitSync/s, 1 member | $K_C1 | $S_C1 | $(ratio "$S_C1" "$K_C1") |
| commitSync/s, 8 members | $K_C8 | $S_C8 | $(ratio "$S_C8" "$K_C8") |
TABLE
