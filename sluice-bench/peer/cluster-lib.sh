# Sourced by the multi-broker peer scripts (run-replication-comparison.sh, run-move-comparison.sh): paths and JVM
# options, the run directory, process control, bounded tool runs, /proc CPU readings, and the two clusters side by
# side (Apache Kafka KRaft from the jars that kafka-lib.sh fetches, Sluice from sluice-cli/target).
#
# The sourcing script sets, before sourcing: SCRIPT_DIR (this directory), RUN_NAME (names target/<RUN_NAME>-run.*,
# deleted at exit unless KEEP_DATA=1, and target/<RUN_NAME>-last-run), KEEP_DATA, KAFKA_VERSION, BROKERS (brokers per
# cluster), KAFKA_MODE (separate|combined), SESSION_TIMEOUT_MS, READY_TIMEOUT, BROKER_HEAP, COORD_HEAP; optionally
# BROKER_PROPS (array of key=value set on every broker of both systems: Kafka's properties file, Sluice's --override)
# and SLUICE_OVERRIDES (array of key=value, Sluice brokers only, after BROKER_PROPS).
# It sets REPO_DIR, WORK_DIR, KAFKA_LIB, SLUICE_CLI_DIR, JAVA, JAVAC, the *_JVM_OPTS arrays, CLK_TCK, RUN_DIR, KEEP_DIR,
# RESULTS (RUN_DIR/results.tsv) and LOG4J_OPT, sources kafka-lib.sh (fetch_kafka) and installs the EXIT/INT/TERM traps.
REPO_DIR="$(cd "$SCRIPT_DIR/../.." && pwd)"
WORK_DIR="$SCRIPT_DIR/target"
KAFKA_LIB="$WORK_DIR/kafka-$KAFKA_VERSION-lib"
SLUICE_CLI_DIR="$REPO_DIR/sluice-cli/target"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
JAVAC="${JAVA_HOME:+$JAVA_HOME/bin/}javac"
BROKER_JVM_OPTS=(-Xms"$BROKER_HEAP" -Xmx"$BROKER_HEAP" -XX:+UseG1GC -XX:MaxGCPauseMillis=20)
# EXTRA_BROKER_JVM_OPTS: more JVM options for every broker (profiling, e.g. -XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation)
read -ra _extra_broker_opts <<<"${EXTRA_BROKER_JVM_OPTS:-}"
BROKER_JVM_OPTS+=("${_extra_broker_opts[@]}")
COORD_JVM_OPTS=(-Xms"$COORD_HEAP" -Xmx"$COORD_HEAP" -XX:+UseG1GC -XX:MaxGCPauseMillis=20)
TOOL_JVM_OPTS=(-Xmx1g -XX:+UseG1GC)
CLK_TCK="$(getconf CLK_TCK)"

mkdir -p "$WORK_DIR"
RUN_DIR="$(mktemp -d "$WORK_DIR/$RUN_NAME-run.XXXXXX")"
KEEP_DIR="$WORK_DIR/$RUN_NAME-last-run"
RESULTS="$RUN_DIR/results.tsv"

# shellcheck source=sluice-bench/peer/kafka-lib.sh
source "$SCRIPT_DIR/kafka-lib.sh"

STARTED_PIDS=()                         # every JVM this script started, stopped again by cleanup
STEP_PID=""                             # the tool run in progress (timeout's pid)
[[ -n "${BROKER_PROPS+x}" ]] || BROKER_PROPS=()
[[ -n "${SLUICE_OVERRIDES+x}" ]] || SLUICE_OVERRIDES=()

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

# Stops whatever is still running: SIGTERM to all at once, SIGKILL to what is left after 10 s in all (the data is
# thrown away, and Kafka brokers whose controller is gone would otherwise retry their controlled shutdown).
cleanup() {
  local pid live=()
  for pid in $STEP_PID "${STARTED_PIDS[@]:-}"; do
    [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && live+=("$pid")
  done
  if (( ${#live[@]} > 0 )); then
    log "stopping ${#live[@]} processes this script started: ${live[*]}"
    kill -TERM "${live[@]}" 2>/dev/null || true
    for _ in $(seq 1 50); do
      for pid in "${live[@]}"; do kill -0 "$pid" 2>/dev/null && break; done
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    kill -KILL "${live[@]}" 2>/dev/null || true
    for pid in "${live[@]}"; do wait "$pid" 2>/dev/null || true; done
  fi
  if [[ "$KEEP_DATA" == 1 ]]; then log "kept $RUN_DIR"; else rm -rf "$RUN_DIR"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Sets PORT to a free loopback port never handed out before in this run (a Kafka cluster takes up to six before
# any is bound). Not to be called in $(...): the list of ports handed out lives in this shell.
USED_PORTS=" "
free_port() {
  while :; do
    PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
    [[ "$USED_PORTS" == *" $PORT "* ]] || break
  done
  USED_PORTS+="$PORT "
}

record() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$RESULTS"; }

cat > "$RUN_DIR/log4j.properties" <<'L4J'
log4j.rootLogger=WARN, stdout
log4j.logger.kafka.server.KafkaRaftServer=INFO
log4j.logger.kafka.Kafka=INFO
log4j.logger.kafka.server.BrokerServer=INFO
log4j.logger.kafka.server.ControllerServer=INFO
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
L4J
LOG4J_OPT="-Dlog4j.configuration=file:$RUN_DIR/log4j.properties"

# Starts a JVM in the background with its output in a file; $! is the java process itself (no subshell), so its
# /proc/<pid>/stat is the JVM's and a signal reaches the JVM. Sets LAST_PID.
start_jvm() { # logfile java-args...
  local logfile="$1"; shift
  "$JAVA" "$@" >"$logfile" 2>&1 &
  LAST_PID=$!
  STARTED_PIDS+=("$LAST_PID")
}

# Runs one bounded step in the background and waits for it, so that INT/TERM reach the trap at once.
run_step() { # seconds outfile command...
  local seconds="$1" out="$2" rc=0; shift 2
  timeout --kill-after=10 "$seconds" "$@" >"$out" 2>&1 &
  STEP_PID=$!
  wait "$STEP_PID" || rc=$?
  STEP_PID=""
  return "$rc"
}

wait_for_line() { # file pattern pid what
  local file="$1" pattern="$2" pid="$3" what="$4" waited=0
  while ! grep -q -- "$pattern" "$file" 2>/dev/null; do
    if ! kill -0 "$pid" 2>/dev/null; then
      log "$what exited before it was ready; last lines of $file:"; tail -n 30 "$file" >&2; return 1
    fi
    if (( waited >= READY_TIMEOUT * 10 )); then
      log "$what not ready after ${READY_TIMEOUT}s; last lines of $file:"; tail -n 30 "$file" >&2; return 1
    fi
    sleep 0.1; waited=$((waited + 1))
  done
}

stop_pids() { # pid... : SIGTERM side by side, SIGKILL after 30 s
  local pid
  for pid in "$@"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "$@"; do
    for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
}

# utime + stime of the processes, in clock ticks (fields 14 and 15 of /proc/<pid>/stat; every thread counted).
cpu_ticks() {
  local total=0 pid t
  for pid in "$@"; do
    t="$(stat_ticks "/proc/$pid/stat")"
    total=$((total + t))
  done
  echo "$total"
}
# utime + stime from one stat file (a process's or a thread's), in clock ticks; 0 once it is gone.
stat_ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "$1" 2>/dev/null || echo 0; }
# utime + stime of the JVMs' JIT compiler threads (C1/C2 CompilerThread) alive now, in clock ticks: a fresh JVM spends
# much of a short run compiling, a broker in service has done so already. A compiler thread that exited is not counted.
jit_ticks() {
  local total=0 pid task t
  for pid in "$@"; do
    for task in /proc/"$pid"/task/*; do
      case "$(cat "$task/comm" 2>/dev/null)" in
        "C1 CompilerThre"* | "C2 CompilerThre"*)
          t="$(stat_ticks "$task/stat")"
          total=$((total + t)) ;;
      esac
    done
  done
  echo "$total"
}
ticks_to_s() { awk -v t="$1" -v hz="$CLK_TCK" 'BEGIN { printf "%.2f", t / hz }'; }

# ---- the clusters -----------------------------------------------------------------------------------------------
# Each start sets BOOTSTRAP, BROKER_PIDS (id -> pid), COORD_PIDS and CLUSTER_LOGS (name -> log file).
declare -A BROKER_PIDS CLUSTER_LOGS
COORD_PIDS=()

start_kafka_cluster() { # dir
  local dir="$1" id cluster_id controller_ports=() broker_ports=() voters="" roles nodes=() props
  local internal_rf=$(( BROKERS < 3 ? BROKERS : 3 ))
  mkdir -p "$dir"
  BROKER_PIDS=(); CLUSTER_LOGS=(); COORD_PIDS=()
  for id in $(seq 1 "$BROKERS"); do free_port; broker_ports[id]="$PORT"; done
  if [[ "$KAFKA_MODE" == separate ]]; then
    free_port; controller_ports[9]="$PORT"; voters="9@127.0.0.1:${controller_ports[9]}"; nodes=(9 $(seq 1 "$BROKERS"))
  else
    for id in $(seq 1 "$BROKERS"); do
      free_port; controller_ports[id]="$PORT"; voters+="${voters:+,}$id@127.0.0.1:${controller_ports[id]}"
    done
    nodes=($(seq 1 "$BROKERS"))
  fi
  cluster_id="$("$JAVA" "$LOG4J_OPT" -cp "$KAFKA_LIB/*" kafka.tools.StorageTool random-uuid | tail -n 1)"
  for id in "${nodes[@]}"; do
    props="$dir/node-$id.properties"
    local listeners="" advertised=""
    if [[ $id == 9 ]]; then roles=controller
    elif [[ "$KAFKA_MODE" == combined ]]; then roles=broker,controller
    else roles=broker; fi
    [[ $roles == controller ]] || { listeners="PLAINTEXT://127.0.0.1:${broker_ports[id]}"; advertised="$listeners"; }
    [[ $roles == broker ]] || listeners+="${listeners:+,}CONTROLLER://127.0.0.1:${controller_ports[id]}"
    cat > "$props" <<PROPS
process.roles=$roles
node.id=$id
controller.quorum.voters=$voters
listeners=$listeners
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$dir/data-$id
broker.session.timeout.ms=$SESSION_TIMEOUT_MS
broker.heartbeat.interval.ms=2000
controlled.shutdown.enable=true
offsets.topic.replication.factor=$internal_rf
transaction.state.log.replication.factor=$internal_rf
transaction.state.log.min.isr=$(( internal_rf < 2 ? internal_rf : 2 ))
group.initial.rebalance.delay.ms=0
PROPS
    if [[ $roles != controller ]]; then
      printf 'advertised.listeners=%s\ninter.broker.listener.name=PLAINTEXT\n' "$advertised" >>"$props"
      (( ${#BROKER_PROPS[@]} == 0 )) || printf '%s\n' "${BROKER_PROPS[@]}" >>"$props"
    fi
    "$JAVA" "$LOG4J_OPT" -cp "$KAFKA_LIB/*" kafka.tools.StorageTool format -t "$cluster_id" -c "$props" \
      >"$dir/format-$id.log" 2>&1 || { log "Kafka storage format of node $id failed:"; cat "$dir/format-$id.log" >&2; return 1; }
  done
  for id in "${nodes[@]}"; do
    local opts=("${BROKER_JVM_OPTS[@]}")
    [[ $id == 9 ]] && opts=("${COORD_JVM_OPTS[@]}")
    start_jvm "$dir/node-$id.log" "${opts[@]}" "$LOG4J_OPT" -cp "$KAFKA_LIB/*" kafka.Kafka "$dir/node-$id.properties"
    if [[ $id == 9 ]]; then COORD_PIDS+=("$LAST_PID"); CLUSTER_LOGS[controller-9]="$dir/node-$id.log"
    else BROKER_PIDS[$id]="$LAST_PID"; CLUSTER_LOGS[broker-$id]="$dir/node-$id.log"; fi
    [[ $id == 9 ]] && { wait_for_line "$dir/node-9.log" "Kafka Server started" "$LAST_PID" "Kafka controller 9" || return 1; }
  done
  for id in $(seq 1 "$BROKERS"); do
    wait_for_line "$dir/node-$id.log" "Kafka Server started" "${BROKER_PIDS[$id]}" "Kafka node $id" || return 1
  done
  BOOTSTRAP=""
  for id in $(seq 1 "$BROKERS"); do BOOTSTRAP+="${BOOTSTRAP:+,}127.0.0.1:${broker_ports[id]}"; done
  log "Kafka $KAFKA_VERSION ($KAFKA_MODE KRaft) brokers $(broker_pid_list) controller pids ${COORD_PIDS[*]:-in the brokers}; bootstrap $BOOTSTRAP"
}

start_sluice_cluster() { # dir
  local dir="$1" id zk_port port kv overrides=()
  for kv in "${BROKER_PROPS[@]}" "${SLUICE_OVERRIDES[@]}"; do [[ -z "$kv" ]] || overrides+=(--override "$kv"); done
  if [[ ! -f "$SLUICE_CLI_DIR/sluice-cli.jar" || ! -d "$SLUICE_CLI_DIR/lib" ]]; then
    log "Sluice is not built ($SLUICE_CLI_DIR/sluice-cli.jar missing): run mvn -B -q package -DskipTests in the repository root"
    return 1
  fi
  mkdir -p "$dir"
  BROKER_PIDS=(); CLUSTER_LOGS=(); COORD_PIDS=()
  local cp="$SLUICE_CLI_DIR/sluice-cli.jar:$SLUICE_CLI_DIR/lib/*"
  free_port; zk_port="$PORT"
  start_jvm "$dir/zookeeper.log" "${COORD_JVM_OPTS[@]}" -cp "$cp" io.sluice.cli.SluiceCli zookeeper \
    --port "$zk_port" --dir "$dir/zookeeper"
  COORD_PIDS+=("$LAST_PID"); CLUSTER_LOGS[zookeeper]="$dir/zookeeper.log"
  wait_for_line "$dir/zookeeper.log" "ZooKeeper listening on" "$LAST_PID" "Sluice ZooKeeper" || return 1
  BOOTSTRAP=""
  for id in $(seq 1 "$BROKERS"); do
    free_port; port="$PORT"
    start_jvm "$dir/broker-$id.log" "${BROKER_JVM_OPTS[@]}" -cp "$cp" io.sluice.cli.SluiceCli server \
      --data-dir "$dir/data-$id" --listen "127.0.0.1:$port" --override "broker.id=$id" \
      --override "zookeeper.connect=127.0.0.1:$zk_port/sluice" \
      --override "zookeeper.session.timeout.ms=$SESSION_TIMEOUT_MS" \
      --override "group.initial.rebalance.delay.ms=0" "${overrides[@]}"
    BROKER_PIDS[$id]="$LAST_PID"; CLUSTER_LOGS[broker-$id]="$dir/broker-$id.log"
    BOOTSTRAP+="${BOOTSTRAP:+,}127.0.0.1:$port"
  done
  for id in $(seq 1 "$BROKERS"); do
    wait_for_line "$dir/broker-$id.log" "started, listening on" "${BROKER_PIDS[$id]}" "Sluice broker $id" || return 1
  done
  log "Sluice brokers $(broker_pid_list) ZooKeeper pid ${COORD_PIDS[*]}; bootstrap $BOOTSTRAP"
}

broker_pid_list() { # id=pid,id=pid,...
  local id out=""
  for id in $(seq 1 "$BROKERS"); do [[ -n "${BROKER_PIDS[$id]:-}" ]] && out+="${out:+,}$id=${BROKER_PIDS[$id]}"; done
  echo "$out"
}

stop_cluster() { # keep-prefix
  local pids=() id name
  for id in $(seq 1 "$BROKERS"); do [[ -n "${BROKER_PIDS[$id]:-}" ]] && pids+=("${BROKER_PIDS[$id]}"); done
  stop_pids "${pids[@]}"
  [[ ${#COORD_PIDS[@]} -eq 0 ]] || stop_pids "${COORD_PIDS[@]}"
  mkdir -p "$KEEP_DIR"
  for name in "${!CLUSTER_LOGS[@]}"; do cp "${CLUSTER_LOGS[$name]}" "$KEEP_DIR/$1-$name.log" 2>/dev/null || true; done
  BROKER_PIDS=(); COORD_PIDS=(); CLUSTER_LOGS=()
}

start_cluster() { # system dir
  if [[ "$1" == kafka ]]; then start_kafka_cluster "$2"; else start_sluice_cluster "$2"; fi
}

# The Java probes of the sourcing script: single files next to it, compiled once per run against the Kafka jars.
PROBE_CLASSES="$RUN_DIR/probe-classes"
compile_probes() { # file.java...
  local f sources=()
  for f in "$@"; do sources+=("$SCRIPT_DIR/$f"); done
  mkdir -p "$PROBE_CLASSES"
  "$JAVAC" -nowarn -d "$PROBE_CLASSES" -cp "$KAFKA_LIB/*" "${sources[@]}"
}

# Runs a probe class and prints its RESULT line ("RESULT failed ..." when it gave none).
run_probe() { # class outfile seconds mode args...
  local class="$1" out="$2" seconds="$3"; shift 3
  if ! run_step "$seconds" "$out" "$JAVA" -Xmx512m "$LOG4J_OPT" -cp "$PROBE_CLASSES:$KAFKA_LIB/*" "$class" "$@"; then
    grep -q '^RESULT' "$out" || { echo "RESULT failed error=probe $1 exited without a result (timeout ${seconds}s?): $(tail -n 3 "$out" | tr '\n' ' ')"; return 0; }
  fi
  grep '^RESULT' "$out" | tail -n 1
}

# A key's value in a RESULT line, and its error (error=... or last_error=..., to the end of the line).
field() { sed -nE "s/.*[ ]$2=([^ ]+).*/\1/p" <<<"$1"; }
error_of() { sed -nE 's/.*[ ](last_)?error=(.*)$/\2/p' <<<"$1"; }
