#!/usr/bin/env bash
# Issue 15's measurement: produce and consume throughput and broker CPU per record over SASL_SSL against PLAINTEXT on
# Sluice, and against Apache Kafka 3.9.1 (KRaft, one node, jars from Maven Central) over SASL_SSL, on this machine in
# one run, as ratios. One broker at a time, each run: create a topic, Kafka's ProducerPerformance then
# ConsumerPerformance (kafka-tools 3.9.1) with the same settings; broker CPU is utime+stime of the broker JVM from
# /proc/<pid>/stat across each tool run, divided by the records. Certificates (a CA and a broker certificate for
# 127.0.0.1, PKCS12) are made at run time with keytool; SASL/PLAIN users come from the listener's JAAS configuration.
# Rounds alternate the order of the configurations (round 1 as listed in CONFIGS, round 2 reversed, ...).
#
# Usage: flock /tmp/heavy.lock sluice-bench/peer/run-security-comparison.sh
# Environment overrides: RECORDS (1000000) RECORD_SIZE (100) PARTITIONS (4) COMPRESSION (none) LINGER_MS (5) ACKS (1)
#   ROUNDS (2) BROKER_HEAP (1g) STEP_TIMEOUT (600 s per tool run)
#   CONFIGS ("sluice-plaintext sluice-sasl_ssl kafka-sasl_ssl kafka-plaintext")
#   KEEP_DATA (0; 1 keeps the run directory under target/)
#   PRODUCER_EXTRA, CONSUMER_EXTRA (nothing; more client settings, space separated key=value, e.g. small fetches of
#     many partitions: PARTITIONS=50 PRODUCER_EXTRA="batch.size=1024" CONSUMER_EXTRA="max.partition.fetch.bytes=1024")
#   BROKER_JVM_EXTRA (nothing; JVM options added to both brokers, e.g. to profile:
#     "-XX:StartFlightRecording=filename=/tmp/broker.jfr,settings=profile")
# Needs: JDK 17 (java, keytool), Maven (Kafka's jars), python3, coreutils timeout. Sluice must be built:
#   mvn -B -q package -DskipTests
set -euo pipefail

case "${1:-}" in -h|--help) sed -n '2,20p' "$0"; exit 0 ;; "") ;; *) echo "unknown argument: $1 (try --help)" >&2; exit 2 ;; esac

RECORDS="${RECORDS:-1000000}"
RECORD_SIZE="${RECORD_SIZE:-100}"
PARTITIONS="${PARTITIONS:-4}"
COMPRESSION="${COMPRESSION:-none}"
LINGER_MS="${LINGER_MS:-5}"
ACKS="${ACKS:-1}"
ROUNDS="${ROUNDS:-2}"
BROKER_HEAP="${BROKER_HEAP:-1g}"
STEP_TIMEOUT="${STEP_TIMEOUT:-600}"
CONFIGS="${CONFIGS:-sluice-plaintext sluice-sasl_ssl kafka-sasl_ssl kafka-plaintext}"
for c in $CONFIGS; do
  case "$c" in sluice-plaintext|sluice-sasl_ssl|kafka-plaintext|kafka-sasl_ssl) ;;
    *) echo "CONFIGS: unknown configuration '$c'" >&2; exit 2 ;; esac
done
KAFKA_VERSION=3.9.1
READY_TIMEOUT=120
STORE_PASSWORD=bench-store
BENCH_USER=bench
BENCH_PASSWORD=bench-secret
BROKER_USER=broker
BROKER_PASSWORD=broker-secret

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# What cluster-lib.sh needs for its paths, traps, process control and /proc readings (one broker, no cluster).
RUN_NAME=security KEEP_DATA="${KEEP_DATA:-0}" BROKERS=1 KAFKA_MODE=combined SESSION_TIMEOUT_MS=6000 COORD_HEAP=256m
# shellcheck source=cluster-lib.sh
source "$SCRIPT_DIR/cluster-lib.sh"
KEYTOOL="${JAVA_HOME:+$JAVA_HOME/bin/}keytool"
if [[ -n "${BROKER_JVM_EXTRA:-}" ]]; then read -r -a extra_opts <<<"$BROKER_JVM_EXTRA"; BROKER_JVM_OPTS+=("${extra_opts[@]}"); fi
TOOL=("$JAVA" "${TOOL_JVM_OPTS[@]}" "$LOG4J_OPT" -cp "$KAFKA_LIB/*")

# A CA, a broker key and certificate for 127.0.0.1 signed by it (PKCS12), and a trust store holding the CA.
make_certificates() {
  local d="$RUN_DIR/tls" kt=("$KEYTOOL" -storepass "$STORE_PASSWORD" -keypass "$STORE_PASSWORD" -storetype PKCS12 -noprompt)
  mkdir -p "$d"
  "${kt[@]}" -genkeypair -keystore "$d/ca.p12" -alias ca -dname "CN=bench-ca" -keyalg RSA -keysize 2048 \
    -validity 2 -ext bc:c >/dev/null 2>&1
  "${kt[@]}" -exportcert -keystore "$d/ca.p12" -alias ca -rfc -file "$d/ca.pem" >/dev/null 2>&1
  "${kt[@]}" -genkeypair -keystore "$d/broker.p12" -alias broker -dname "CN=127.0.0.1" -keyalg RSA -keysize 2048 \
    -validity 2 >/dev/null 2>&1
  "${kt[@]}" -certreq -keystore "$d/broker.p12" -alias broker -file "$d/broker.csr" >/dev/null 2>&1
  "${kt[@]}" -gencert -keystore "$d/ca.p12" -alias ca -infile "$d/broker.csr" -outfile "$d/broker.pem" -rfc \
    -validity 2 -ext "SAN=ip:127.0.0.1,dns:localhost" >/dev/null 2>&1
  "${kt[@]}" -importcert -keystore "$d/broker.p12" -alias ca -file "$d/ca.pem" >/dev/null 2>&1
  "${kt[@]}" -importcert -keystore "$d/broker.p12" -alias broker -file "$d/broker.pem" >/dev/null 2>&1
  "${kt[@]}" -importcert -keystore "$d/truststore.p12" -alias ca -file "$d/ca.pem" >/dev/null 2>&1
  KEYSTORE="$d/broker.p12"; TRUSTSTORE="$d/truststore.p12"
}

# The broker side of a SASL_SSL listener named SASL_SSL (identical keys for Kafka and Sluice).
sasl_ssl_broker_settings() {
  cat <<PROPS
ssl.keystore.location=$KEYSTORE
ssl.keystore.type=PKCS12
ssl.keystore.password=$STORE_PASSWORD
ssl.key.password=$STORE_PASSWORD
ssl.truststore.location=$TRUSTSTORE
ssl.truststore.type=PKCS12
ssl.truststore.password=$STORE_PASSWORD
sasl.enabled.mechanisms=PLAIN
sasl.mechanism.inter.broker.protocol=PLAIN
inter.broker.listener.name=SASL_SSL
listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="$BROKER_USER" password="$BROKER_PASSWORD" user_$BROKER_USER="$BROKER_PASSWORD" user_$BENCH_USER="$BENCH_PASSWORD";
PROPS
}

# The client side, for the tools' --producer.config / --consumer.config / --command-config.
write_client_config() { # protocol file
  if [[ "$1" == SASL_SSL ]]; then
    cat > "$2" <<PROPS
security.protocol=SASL_SSL
ssl.truststore.location=$TRUSTSTORE
ssl.truststore.type=PKCS12
ssl.truststore.password=$STORE_PASSWORD
sasl.mechanism=PLAIN
sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="$BENCH_USER" password="$BENCH_PASSWORD";
PROPS
  else
    echo "security.protocol=PLAINTEXT" > "$2"
  fi
}

start_kafka() { # protocol name
  local protocol="$1" name="$2" port controller_port data props="$RUN_DIR/$2.properties"
  free_port; port="$PORT"; free_port; controller_port="$PORT"; data="$RUN_DIR/$name-data"
  rm -rf "$data"; mkdir -p "$data"
  cat > "$props" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=$protocol://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=$protocol://127.0.0.1:$port
controller.listener.names=CONTROLLER
listener.security.protocol.map=$protocol:$protocol,CONTROLLER:PLAINTEXT
log.dirs=$data
num.partitions=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
PROPS
  if [[ "$protocol" == SASL_SSL ]]; then sasl_ssl_broker_settings >> "$props"; else echo "inter.broker.listener.name=PLAINTEXT" >> "$props"; fi
  local cluster_id
  cluster_id="$("${TOOL[@]}" kafka.tools.StorageTool random-uuid | tail -n 1)"
  "${TOOL[@]}" kafka.tools.StorageTool format -t "$cluster_id" -c "$props" >"$RUN_DIR/$name-format.log" 2>&1 \
    || { cat "$RUN_DIR/$name-format.log" >&2; return 1; }
  start_jvm "$RUN_DIR/$name.log" "${BROKER_JVM_OPTS[@]}" "$LOG4J_OPT" -cp "$KAFKA_LIB/*" kafka.Kafka "$props"
  BROKER_PID=$LAST_PID
  wait_for_line "$RUN_DIR/$name.log" "Kafka Server started" "$BROKER_PID" "Kafka"
  BOOTSTRAP="127.0.0.1:$port"
}

start_sluice() { # protocol name
  local protocol="$1" name="$2" port data props="$RUN_DIR/$2.properties"
  if [[ ! -f "$SLUICE_CLI_DIR/sluice-cli.jar" || ! -d "$SLUICE_CLI_DIR/lib" ]]; then
    log "Sluice is not built ($SLUICE_CLI_DIR/sluice-cli.jar missing): mvn -B -q package -DskipTests"; return 1
  fi
  free_port; port="$PORT"; data="$RUN_DIR/$name-data"
  rm -rf "$data"
  cat > "$props" <<PROPS
listeners=$protocol://127.0.0.1:$port
listener.security.protocol.map=$protocol:$protocol
log.dirs=$data
num.partitions=1
group.initial.rebalance.delay.ms=0
PROPS
  if [[ "$protocol" == SASL_SSL ]]; then sasl_ssl_broker_settings >> "$props"; fi
  start_jvm "$RUN_DIR/$name.log" "${BROKER_JVM_OPTS[@]}" -cp "$SLUICE_CLI_DIR/sluice-cli.jar:$SLUICE_CLI_DIR/lib/*" \
    io.sluice.cli.SluiceCli server --config "$props"
  BROKER_PID=$LAST_PID
  wait_for_line "$RUN_DIR/$name.log" "started, listening on" "$BROKER_PID" "Sluice"
  BOOTSTRAP="127.0.0.1:$port"
}

stop_broker() { stop_pids "$BROKER_PID"; BROKER_PID=; }

us_per_record() { # ticks
  awk -v t="$1" -v hz="$CLK_TCK" -v n="$RECORDS" 'BEGIN { printf "%.2f", t * 1e6 / hz / n }'
}

# One configuration: start, topic, produce, consume, stop. Appends "round name prps pmbps pcpu crps cmbps ccpu".
run_config() { # round name
  local round="$1" name="$2" system="${2%%-*}" protocol out before after
  protocol="$(tr '[:lower:]' '[:upper:]' <<<"${2#*-}")"
  local client="$RUN_DIR/$name-client.properties" prps=failed pmbps=failed pcpu=- crps=failed cmbps=failed ccpu=-
  write_client_config "$protocol" "$client"
  log "round $round: $name"
  if ! "start_$system" "$protocol" "$name"; then
    stop_broker
    echo "$round $name failed failed - failed failed -" >> "$RUN_DIR/results"; return 0
  fi
  local topic="perf-$name-$round"
  if ! run_step "$STEP_TIMEOUT" "$RUN_DIR/$name-topic.out" "${TOOL[@]}" org.apache.kafka.tools.TopicCommand \
      --bootstrap-server "$BOOTSTRAP" --command-config "$client" --create --topic "$topic" \
      --partitions "$PARTITIONS" --replication-factor 1; then
    log "$name: topic creation failed:"; tail -n 20 "$RUN_DIR/$name-topic.out" >&2
  else
    out="$RUN_DIR/$name-$round-producer.out"
    before="$(cpu_ticks "$BROKER_PID")"
    if run_step "$STEP_TIMEOUT" "$out" "${TOOL[@]}" org.apache.kafka.tools.ProducerPerformance --topic "$topic" \
        --num-records "$RECORDS" --record-size "$RECORD_SIZE" --throughput -1 --producer.config "$client" \
        --producer-props "bootstrap.servers=$BOOTSTRAP" "compression.type=$COMPRESSION" "linger.ms=$LINGER_MS" \
        "acks=$ACKS" ${PRODUCER_EXTRA:-}; then
      after="$(cpu_ticks "$BROKER_PID")"
      local summary
      summary="$(grep -E "^$RECORDS records sent" "$out" | tail -n 1 || true)"
      if [[ -n "$summary" ]]; then
        prps="$(sed -E 's/.*sent, ([0-9.]+) records\/sec.*/\1/' <<<"$summary")"
        pmbps="$(sed -E 's/.*\(([0-9.]+) MB\/sec\).*/\1/' <<<"$summary")"
        pcpu="$(us_per_record $((after - before)))"
        log "$name: $summary; broker CPU $pcpu us/record"
      else
        log "$name: no summary line in producer output:"; tail -n 20 "$out" >&2
      fi
      out="$RUN_DIR/$name-$round-consumer.out"
      local consumer="$RUN_DIR/$name-consumer.properties"
      cp "$client" "$consumer"
      if [[ -n "${CONSUMER_EXTRA:-}" ]]; then tr ' ' '\n' <<<"$CONSUMER_EXTRA" >> "$consumer"; fi
      before="$(cpu_ticks "$BROKER_PID")"
      if run_step "$STEP_TIMEOUT" "$out" "${TOOL[@]}" org.apache.kafka.tools.ConsumerPerformance \
          --bootstrap-server "$BOOTSTRAP" --consumer.config "$consumer" --topic "$topic" --messages "$RECORDS" \
          --timeout 60000 --group "perf-$name-$round-$$"; then
        after="$(cpu_ticks "$BROKER_PID")"
        local row
        row="$(grep -E '^[0-9]{4}-' "$out" | tail -n 1 || true)"
        if [[ -n "$row" ]]; then
          # fetch.MB.sec and fetch.nMsg.sec: consume time without the group join
          cmbps="$(awk -F', *' '{print $9}' <<<"$row")"
          crps="$(awk -F', *' '{print $10}' <<<"$row")"
          ccpu="$(us_per_record $((after - before)))"
          log "$name: consumer $row; broker CPU $ccpu us/record"
        else
          log "$name: no result row in consumer output:"; tail -n 20 "$out" >&2
        fi
      else
        log "$name: ConsumerPerformance failed:"; tail -n 20 "$out" >&2
      fi
    else
      log "$name: ProducerPerformance failed:"; tail -n 20 "$out" >&2
    fi
  fi
  stop_broker
  mkdir -p "$KEEP_DIR"
  cp "$RUN_DIR/$name"*.out "$RUN_DIR/$name.log" "$KEEP_DIR/" 2>/dev/null || true
  echo "$round $name $prps $pmbps $pcpu $crps $cmbps $ccpu" >> "$RUN_DIR/results"
}

LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
STARTED="$(date -u +%Y-%m-%dT%H:%MZ)"
fetch_kafka
make_certificates
rm -rf "$KEEP_DIR"
: > "$RUN_DIR/results"
read -r -a ORDER <<<"$CONFIGS"
for round in $(seq 1 "$ROUNDS"); do
  if (( round % 2 == 1 )); then list=("${ORDER[@]}"); else list=(); for ((i=${#ORDER[@]}-1; i>=0; i--)); do list+=("${ORDER[i]}"); done; fi
  for c in "${list[@]}"; do run_config "$round" "$c"; done
done
LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)"
mkdir -p "$KEEP_DIR"; cp "$RUN_DIR/results" "$KEEP_DIR/results.txt"

CPU="$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//')"
echo
echo "Security comparison, $STARTED to $(date -u +%H:%MZ), $(nproc) cores ($CPU), $("$JAVA" -version 2>&1 | head -n 1)"
echo "Settings: $RECORDS records x $RECORD_SIZE B, $PARTITIONS partitions (RF 1), compression.type=$COMPRESSION"
echo "linger.ms=$LINGER_MS acks=$ACKS ${PRODUCER_EXTRA:-}; consumer ${CONSUMER_EXTRA:-defaults}; ConsumerPerformance fetch-time rates; SASL/PLAIN over TLS (JDK engine both);"
echo "broker JVM ${BROKER_JVM_OPTS[*]}; $ROUNDS rounds, order alternating; load average before $LOAD_BEFORE, after $LOAD_AFTER."
echo
python3 - "$RUN_DIR/results" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
cols = ["produce rec/s", "produce MB/s", "produce broker CPU us/rec", "consume rec/s", "consume MB/s", "consume broker CPU us/rec"]
def num(v):
    try: return float(v)
    except ValueError: return None
data = {}
for r in rows:
    data.setdefault(r[1], []).append([num(v) for v in r[2:8]])
def mean(name, i):
    vals = [x[i] for x in data.get(name, []) if x[i] is not None]
    return sum(vals) / len(vals) if vals else None
def per_round(name, i):
    return ", ".join("-" if x[i] is None else f"{x[i]:,.2f}" if x[i] < 100 else f"{x[i]:,.0f}" for x in data.get(name, []))
names = [n for n in ["sluice-plaintext", "sluice-sasl_ssl", "kafka-sasl_ssl", "kafka-plaintext"] if n in data]
print("| metric | " + " | ".join(f"{n} (rounds)" for n in names) + " |")
print("|---|" + "---|" * len(names))
for i, c in enumerate(cols):
    cells = []
    for n in names:
        m = mean(n, i)
        cells.append("-" if m is None else (f"{m:,.2f}" if m < 100 else f"{m:,.0f}") + f" ({per_round(n, i)})")
    print(f"| {c} | " + " | ".join(cells) + " |")
print()
def ratio(a, b, i):
    x, y = mean(a, i), mean(b, i)
    return "-" if x is None or y is None or y == 0 else f"{x / y:.2f}"
pairs = [("sluice-sasl_ssl", "sluice-plaintext"), ("sluice-sasl_ssl", "kafka-sasl_ssl"),
         ("kafka-sasl_ssl", "kafka-plaintext"), ("sluice-plaintext", "kafka-plaintext")]
pairs = [p for p in pairs if p[0] in data and p[1] in data]
print("| ratio (means) | " + " | ".join(f"{a} / {b}" for a, b in pairs) + " |")
print("|---|" + "---|" * len(pairs))
for i, c in enumerate(cols):
    print(f"| {c} | " + " | ".join(ratio(a, b, i) for a, b in pairs) + " |")
PY
echo
echo "Tool output and broker logs: $KEEP_DIR/"
