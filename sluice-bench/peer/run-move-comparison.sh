#!/usr/bin/env bash
# Partition move side by side (issue 13): one partition of SIZE_MB (zstd, each record size of RECORD_SIZES) moved
# from one broker to the other, on this machine, in the same run, alternating:
#   kafka        Apache Kafka 3.9.1 (KRaft: one controller + 2 brokers, Maven Central jars), its reassignment;
#   sluice       Sluice (one `sluice zookeeper` + 2 `sluice server`), the new replica bootstrapped by follower fetch;
#   sluice-file  Sluice with the file path on (segment files shipped with sendfile), only when
#                SLUICE_FILE_PATH_OVERRIDES is set: its key=value words are passed to both brokers as --override;
#   floor        the same segment files of the source broker sent with FileChannel.transferTo over one loopback socket
#                and written by a bare receiver + fsync (MoveFloor.java), once per system run, between the fill and
#                the move, with the brokers idle; FLOOR_WRITES=direct (the default): O_DIRECT from a ring of three
#                aligned 1 MiB buffers drained by a writer thread (its fastest size; see MoveFloor.java); buffered: through
#                one 1 MiB direct buffer and the page cache (the floor before 2026-11-28, slowed by page-cache reclaim).
# Per system run: start the cluster (log.segment.bytes = SEGMENT_MB on both), create topic `move` (1 partition, RF 1)
# and read which broker got it, fill it with kafka-tools' ProducerPerformance (acks=1, zstd, linger.ms=5) until its
# segment files hold SIZE_MB, syncfs, run the floor on its files, then move it to the other broker with
# ReassignPartitionsCommand.executeAssignment (what kafka-reassign-partitions.sh --execute runs, no throttle) and poll
# ListPartitionReassignments + Metadata every POLL_MS until it is done (replicas = [target], target leads; 20 ms: a
# move ends on the first poll after it is done, 11-123 ms late at the old 100 ms, 4-37 ms at 20, docs/benchmarks.md
# section 10); then
# kafka-reassign-partitions.sh --verify --preserve-throttles once, untimed. Measured: seconds, MB/s (the partition's
# segment bytes / seconds; MB = 2^20 B), utime+stime of the source and target broker JVMs (/proc/<pid>/stat) over
# the move, CPU seconds per GB (2^30 B) on each side, and the same without the JVM's JIT compiler threads (C1/C2
# CompilerThread: each system compiles its move path on its first move; the rest is what a warm broker spends).
# WARM_MOVES=1 (the default) then moves the partition back to its source and once more to the target: that third move
# (`warm`) runs between brokers that have each already moved a partition in the same role, so neither compiles its
# move path again (a broker in service has); the first move (`move`) is what a broker's first move costs, JIT included.
# PRODUCE_DURING=1 adds, on the same cluster: topic `steady` (2 partitions, RF 1) and a fixed-rate producer
# (STEADY_RATE records/s of STEADY_RECORD_SIZE B, acks=1, linger.ms=0; MoveProbe steady) for STEADY_SECONDS without a
# move, then again while the partition moves back to its first broker: p50/p99/p99.9/max of the steady records
# without and during the move (the move-back seconds are reported apart; they include the steady load).
# IN_SERVICE=1 runs every cluster as a broker in service before the measured partition exists (the same on every
# system, nothing of it measured): topic `service` (1 partition, RF 1) filled with SERVICE_MB of the same records,
# read end to end by a consumer (ConsumerPerformance), moved between the brokers SERVICE_MOVES times (each broker is
# source and target) and read end to end again; between the read and the moves, SERVICE_CHATTY_SECONDS of small
# requests: topic `chatter` (2 partitions, RF 1, one on each broker) written by a fixed-rate producer
# (SERVICE_CHATTY_RATE records/s of 100 B, acks=1, linger.ms=0: one produce request per record; MoveProbe steady) and
# tailed by a consumer (ConsumerPerformance: a fetch answer per few records), as a broker in service sees from many
# clients. The first move is then a first move of the 1 GB partition on brokers
# that have served producers, consumers and moves before (their JIT compilers have seen those paths), not a fresh JVM's.
# COLD=1 drops the source's partition files from the page cache (POSIX_FADV_DONTNEED through `dd iflag=nocache
# count=0`, after syncfs) before the floor and before every move, so each move reads its source from the disk, as a
# partition that has not been read for a while is. COLD=0 (the default): the first move's source is cached (just
# written by the fill), and before the back and warm moves the source's segment files are read once into the page
# cache (cat), so that both systems start every move from a cached source, as the floor does.
# Prints markdown tables with Sluice/Kafka and Sluice/floor ratios and the issue's targets, and writes
# sluice-bench/peer/target/move-<UTC time>.{md,csv,json} (and move-latest.*); logs: target/move-last-run/.
#
# Usage: flock /tmp/heavy.lock sluice-bench/peer/run-move-comparison.sh [--only kafka,sluice,sluice-file]
#   SIZE_MB=10240 ... : the large variant (10 GB per partition: about 3x SIZE_MB of free disk per system run, about
#                       20 minutes for kafka,sluice-file on 2 quiet cores); TenGigabyteMoveComparisonTest runs it
#                       behind the slow profile.
# Environment (defaults in brackets):
#   SIZE_MB [1024] RECORD_SIZES [100,1000] COMPRESSION [zstd] SEGMENT_MB [128] ROUNDS [2]
#   WARM_MOVES [1] ORDER [kafka-first|sluice-first] POLL_MS [20] MOVE_TIMEOUT [1800 s] FILL_TIMEOUT [1800 s per producer run]
#   IN_SERVICE [0] SERVICE_MB [256] SERVICE_MOVES [4] SERVICE_CHATTY_SECONDS [20] SERVICE_CHATTY_RATE [2000]
#   FLOOR [1] FLOOR_WRITES [direct|buffered] COLD [0] PRODUCE_DURING [0] STEADY_RATE [1000] STEADY_RECORD_SIZE [100] STEADY_SECONDS [30]
#   SLUICE_FILE_PATH_OVERRIDES [unset: no sluice-file row] SESSION_TIMEOUT_MS [10000] BROKER_HEAP [1g]
#   COORD_HEAP [512m] READY_TIMEOUT [180 s] KEEP_DATA [0]
# Needs: JDK 17, Maven (reaches Maven Central once, through kafka-lib.sh), python3, coreutils (timeout, sync -f), and
# Sluice built from the repository root with: mvn -B -q package -DskipTests   (no install needed)
set -euo pipefail

ONLY=kafka,sluice,sluice-file
while [[ $# -gt 0 ]]; do
  case "$1" in
    --only) ONLY="${2:-}"; shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { print }' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (try --help)" >&2; exit 2 ;;
  esac
done
for s in ${ONLY//,/ }; do
  case "$s" in kafka|sluice|sluice-file) ;; *) echo "--only lists kafka, sluice, sluice-file; got '$s'" >&2; exit 2 ;; esac
done

SETTINGS=(SIZE_MB RECORD_SIZES COMPRESSION SEGMENT_MB ROUNDS WARM_MOVES IN_SERVICE SERVICE_MB SERVICE_MOVES SERVICE_CHATTY_SECONDS SERVICE_CHATTY_RATE ORDER POLL_MS
  MOVE_TIMEOUT FILL_TIMEOUT FLOOR
  FLOOR_WRITES COLD PRODUCE_DURING STEADY_RATE STEADY_RECORD_SIZE STEADY_SECONDS SLUICE_FILE_PATH_OVERRIDES SESSION_TIMEOUT_MS
  BROKER_HEAP COORD_HEAP READY_TIMEOUT KEEP_DATA)
COMMAND=""
for v in "${SETTINGS[@]}"; do
  [[ -n "${!v+x}" ]] || continue
  if [[ "${!v}" =~ [[:space:]] ]]; then COMMAND+="$v='${!v}' "; else COMMAND+="$v=${!v} "; fi
done
[[ "$(ps -o comm= -p "$PPID" 2>/dev/null)" == flock ]] && COMMAND+="flock $(ps -o args= -p "$PPID" | awk '{ print $2 }') "
COMMAND+="sluice-bench/peer/run-move-comparison.sh"
[[ "$ONLY" == kafka,sluice,sluice-file ]] || COMMAND+=" --only $ONLY"

SIZE_MB="${SIZE_MB:-1024}"
RECORD_SIZES="${RECORD_SIZES:-100,1000}"
COMPRESSION="${COMPRESSION:-zstd}"
SEGMENT_MB="${SEGMENT_MB:-128}"
ROUNDS="${ROUNDS:-2}"
WARM_MOVES="${WARM_MOVES:-1}"
ORDER="${ORDER:-kafka-first}"
POLL_MS="${POLL_MS:-20}"
MOVE_TIMEOUT="${MOVE_TIMEOUT:-1800}"
FILL_TIMEOUT="${FILL_TIMEOUT:-1800}"
FLOOR="${FLOOR:-1}"
FLOOR_WRITES="${FLOOR_WRITES:-direct}"
COLD="${COLD:-0}"
IN_SERVICE="${IN_SERVICE:-0}"
SERVICE_MB="${SERVICE_MB:-256}"
SERVICE_MOVES="${SERVICE_MOVES:-4}"
SERVICE_CHATTY_SECONDS="${SERVICE_CHATTY_SECONDS:-20}"
SERVICE_CHATTY_RATE="${SERVICE_CHATTY_RATE:-2000}"
[[ "$IN_SERVICE" == 0 || "$IN_SERVICE" == 1 ]] || { echo "IN_SERVICE is 0 or 1, got '$IN_SERVICE'" >&2; exit 2; }
[[ "$SERVICE_MB" =~ ^[1-9][0-9]*$ && "$SERVICE_MOVES" =~ ^[0-9]+$ ]] || { echo "SERVICE_MB and SERVICE_MOVES are whole numbers" >&2; exit 2; }
[[ "$SERVICE_CHATTY_SECONDS" =~ ^[0-9]+$ && "$SERVICE_CHATTY_RATE" =~ ^[1-9][0-9]*$ ]] || { echo "SERVICE_CHATTY_SECONDS and SERVICE_CHATTY_RATE are whole numbers" >&2; exit 2; }
[[ "$FLOOR_WRITES" == direct || "$FLOOR_WRITES" == buffered ]] || { echo "FLOOR_WRITES is direct or buffered, got '$FLOOR_WRITES'" >&2; exit 2; }
PRODUCE_DURING="${PRODUCE_DURING:-0}"
STEADY_RATE="${STEADY_RATE:-1000}"
STEADY_RECORD_SIZE="${STEADY_RECORD_SIZE:-100}"
STEADY_SECONDS="${STEADY_SECONDS:-30}"
SLUICE_FILE_PATH_OVERRIDES="${SLUICE_FILE_PATH_OVERRIDES:-}"
SESSION_TIMEOUT_MS="${SESSION_TIMEOUT_MS:-10000}"
BROKER_HEAP="${BROKER_HEAP:-1g}"
COORD_HEAP="${COORD_HEAP:-512m}"
READY_TIMEOUT="${READY_TIMEOUT:-180}"
KEEP_DATA="${KEEP_DATA:-0}"
case "$ORDER" in kafka-first|sluice-first) ;; *) echo "ORDER must be kafka-first or sluice-first, was '$ORDER'" >&2; exit 2 ;; esac

KAFKA_VERSION=3.9.1
KAFKA_MODE=separate
BROKERS=2
RUN_NAME=move                           # RESULTS lines: system <TAB> record size <TAB> round <TAB> metric <TAB> value
BROKER_PROPS=("log.segment.bytes=$((SEGMENT_MB * 1048576))")
read -r -a FILE_PATH_OVERRIDES <<<"$SLUICE_FILE_PATH_OVERRIDES"

# The systems of one round, in ORDER; sluice-file only when its overrides are given.
SYSTEMS=()
for s in kafka sluice sluice-file; do
  [[ ",$ONLY," == *",$s,"* ]] || continue
  [[ $s != sluice-file || -n "$SLUICE_FILE_PATH_OVERRIDES" ]] || continue
  SYSTEMS+=("$s")
done
[[ "$ORDER" == kafka-first ]] || SYSTEMS=($(printf '%s\n' "${SYSTEMS[@]}" | sort -r))
(( ${#SYSTEMS[@]} > 0 )) || { echo "nothing to run: --only $ONLY (sluice-file needs SLUICE_FILE_PATH_OVERRIDES)" >&2; exit 2; }

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=sluice-bench/peer/cluster-lib.sh
source "$SCRIPT_DIR/cluster-lib.sh"

# Results carry the record size as well: record_at system round metric value (RS is the record size being run).
record_at() { printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$RS" "$2" "$3" "$4" >>"$RESULTS"; }

# ---- the steps ----------------------------------------------------------------------------------------------------
probe() { run_probe MoveProbe "$@"; } # outfile seconds mode args... -> its RESULT line

# The live directory of a partition on one broker (a Kafka or Sluice log dir: <log dir>/<topic>-<partition>).
partition_dir() { # cluster-dir broker-id topic-partition
  find "$1/data-$2" -maxdepth 2 -type d -name "$3" 2>/dev/null | head -n 1
}
evict_if_cold() { # partition-dir : with COLD=1, its files synced and dropped from the page cache
  [[ "$COLD" == 1 && -n "$1" && -d "$1" ]] || return 0
  sync -f "$1"
  find "$1" -maxdepth 1 -type f -exec dd if={} iflag=nocache count=0 status=none \;
}
# The page cache a move's source starts with: COLD=1 drops its files; otherwise a move after the first (back, warm)
# reads them into the page cache first, so that every move starts as the first move and the floor do, from a cached
# source, on both systems (a Sluice target writes with O_DIRECT, so the files of its new replica are not cached,
# where Kafka's new replica's files are).
prepare_source() { # partition-dir move-prefix
  [[ -n "$1" && -d "$1" ]] || return 0
  if [[ "$COLD" == 1 ]]; then
    evict_if_cold "$1"
  elif [[ "$2" != move ]]; then
    find "$1" -maxdepth 1 -type f -name '*.log' -exec cat {} + >/dev/null
  fi
}
log_bytes() { # partition-dir : bytes of its segment files (%.0f: mawk's %d stops at 2^31 - 1)
  [[ -n "$1" && -d "$1" ]] || { echo 0; return; }
  find "$1" -maxdepth 1 -name '*.log' -printf '%s\n' | awk '{ s += $1 } END { printf "%.0f\n", s }'
}
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }

# Creates a topic of RF 1 (ReplicationProbe create) and sets LEADERS to its "broker:partitions,..." list: with one
# replica per partition, where each partition landed.
create_rf1() { # system round topic partitions
  local res
  res="$(run_probe ReplicationProbe "$RUN_DIR/$1-$RS-r$2-create-$3.out" 180 create "$BOOTSTRAP" "$3" "$4" 1 1 120000)"
  log "$1 ${RS} B round $2: create $3 ($4 partitions, RF 1): ${res#RESULT }"
  LEADERS="$(field "$res" leaders)"
  [[ "$(field "$res" create_ms)" =~ ^[0-9]+$ && -n "$LEADERS" ]] || { record_at "$1" "$2" "error_create_$3" "${res#RESULT }"; return 1; }
}

# Fills move-0 on broker SOURCE until its segment files hold SIZE_MB: ProducerPerformance runs sized from the bytes
# per record seen so far (the first from a guess of 0.65 x record size for zstd of its random letters). The bytes a
# record takes on disk vary between runs (ProducerPerformance repeats one payload, so zstd's ratio follows the batch
# sizes): after the first run each run aims at most at half of what is missing (at most 12 runs), and no run starts
# whose records could, uncompressed, fill the disk (a 10 GB fill once went past 20 GB: log_bytes, then summed with
# awk's %d, read every size above 2 GiB as 2 GiB).
fill() { # system round dir source
  local sys="$1" round="$2" dir="$3" source="$4" target_bytes=$((SIZE_MB * 1048576)) bytes=0 sent=0 n i out rc
  local t0 t1 pdir summary per_record free_bytes
  t0="$(date +%s%N)"
  for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
    pdir="$(partition_dir "$dir" "$source" move-0)"
    bytes="$(log_bytes "$pdir")"
    (( bytes < target_bytes * 99 / 100 )) || break
    if (( sent == 0 )); then per_record=$(( RS * 65 / 100 + 1 )); else per_record=$(( (bytes + sent - 1) / sent )); fi
    n=$(( (target_bytes - bytes) / per_record + 1 ))
    if (( sent == 0 )); then n=$(( n * 95 / 100 + 1 )); elif (( bytes < target_bytes * 9 / 10 )); then n=$(( n / 2 + 1 )); fi
    free_bytes=$(( $(df -P -k "$dir" | awk 'NR == 2 { print $4 }') * 1024 ))
    if (( n * RS > free_bytes - target_bytes )); then
      record_at "$sys" "$round" error_fill "$n records of $RS B could outgrow the $(mb "$free_bytes") MB free on the disk"
      return 1
    fi
    out="$RUN_DIR/$sys-$RS-r$round-fill-$i.out"
    log "$sys ${RS} B round $round: fill $i: $(mb "$bytes") MB on disk, ProducerPerformance $n x $RS B"
    rc=0
    run_step "$FILL_TIMEOUT" "$out" "$JAVA" "${TOOL_JVM_OPTS[@]}" "$LOG4J_OPT" -cp "$KAFKA_LIB/*" \
      org.apache.kafka.tools.ProducerPerformance --topic move --num-records "$n" --record-size "$RS" --throughput -1 \
      --producer-props "bootstrap.servers=$BOOTSTRAP" acks=1 "compression.type=$COMPRESSION" linger.ms=5 || rc=$?
    summary="$(grep -E '^[0-9]+ records sent, .* 99\.9th' "$out" | tail -n 1 || true)"
    if [[ $rc -ne 0 || -z "$summary" ]]; then
      log "$sys ${RS} B round $round: ProducerPerformance failed (exit $rc); last lines:"; tail -n 3 "$out" >&2
      record_at "$sys" "$round" error_fill "ProducerPerformance exit $rc: $(tail -n 1 "$out" | cut -c1-200)"
      return 1
    fi
    sent=$(( sent + ${summary%% *} ))
  done
  t1="$(date +%s%N)"
  pdir="$(partition_dir "$dir" "$source" move-0)"
  bytes="$(log_bytes "$pdir")"
  record_at "$sys" "$round" fill_records "$sent"
  record_at "$sys" "$round" fill_s "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')"
  record_at "$sys" "$round" partition_mb "$(mb "$bytes")"
  record_at "$sys" "$round" segments "$(find "$pdir" -maxdepth 1 -name '*.log' | wc -l)"
  log "$sys ${RS} B round $round: filled $(mb "$bytes") MB ($sent records, $(find "$pdir" -maxdepth 1 -name '*.log' | wc -l) segments) in $pdir"
  (( bytes >= target_bytes * 99 / 100 )) || { record_at "$sys" "$round" error_fill "only $(mb "$bytes") MB after 12 producer runs"; return 1; }
}

# The floor on the source broker's segment files: MoveFloor receive + send, sender's wall time.
floor_step() { # system round source-partition-dir
  local sys="$1" round="$2" pdir="$3" recv_dir="$RUN_DIR/floor-$1-$RS-r$2" recv_out send_out port recv_pid res recv_res files
  recv_out="$RUN_DIR/floor-$sys-$RS-r$round-receive.out"; send_out="$RUN_DIR/floor-$sys-$RS-r$round-send.out"
  mapfile -t files < <(find "$pdir" -maxdepth 1 -name '*.log' | sort)
  local receive_mode=()
  [[ "$FLOOR_WRITES" == direct ]] && receive_mode=(direct)
  start_jvm "$recv_out" -Xmx256m -cp "$PROBE_CLASSES" MoveFloor receive "$recv_dir" "${receive_mode[@]}"
  recv_pid="$LAST_PID"
  wait_for_line "$recv_out" "LISTENING port=" "$recv_pid" "floor receiver" || { record_at "floor-$sys" "$round" error_floor "receiver did not start"; return 0; }
  port="$(sed -nE 's/^LISTENING port=([0-9]+).*/\1/p' "$recv_out")"
  run_step "$MOVE_TIMEOUT" "$send_out" "$JAVA" -Xmx256m -cp "$PROBE_CLASSES" MoveFloor send "$port" "${files[@]}" || true
  for _ in $(seq 1 100); do kill -0 "$recv_pid" 2>/dev/null || break; sleep 0.1; done
  wait "$recv_pid" 2>/dev/null || true
  res="$(grep '^RESULT' "$send_out" | tail -n 1 || true)"; recv_res="$(grep '^RESULT' "$recv_out" | tail -n 1 || true)"
  rm -rf "$recv_dir"
  if [[ -z "$res" || -z "$recv_res" ]]; then
    log "floor on $sys files: no result; sender: $(tail -n 3 "$send_out" | tr '\n' ' ') receiver: $(tail -n 3 "$recv_out" | tr '\n' ' ')"
    record_at "floor-$sys" "$round" error_floor "no result on $sys files (see $KEEP_DIR/floor-$sys-$RS-r$round-*.out)"
    return 0
  fi
  local ms bytes
  ms="$(field "$res" ms)"; bytes="$(field "$res" bytes)"
  log "floor on $sys files: ${res#RESULT }; receiver: ${recv_res#RESULT }"
  record_at "floor-$sys" "$round" segments "$(field "$res" files)"
  record_at "floor-$sys" "$round" partition_mb "$(mb "$bytes")"
  record_at "floor-$sys" "$round" move_s "$(awk -v m="$ms" 'BEGIN { printf "%.2f", m / 1000 }')"
  record_at "floor-$sys" "$round" move_source_cpu_s "$(awk -v m="$(field "$res" cpu_ms)" 'BEGIN { printf "%.2f", m / 1000 }')"
  record_at "floor-$sys" "$round" move_target_cpu_s "$(awk -v m="$(field "$recv_res" cpu_ms)" 'BEGIN { printf "%.2f", m / 1000 }')"
}

# Moves move-0 from FROM to TO; records move_s, isr_s, leader_s and the CPU of both brokers under PREFIX.
move_step() { # system round from to prefix [window-file]
  local sys="$1" round="$2" from="$3" to="$4" prefix="$5" res out
  # The move's start and end (epoch ms), kept per move for lining up profiles (perf record -k CLOCK_REALTIME).
  local window="${6:-$RUN_DIR/$sys-$RS-r$round-$prefix.window}"
  out="$RUN_DIR/$sys-$RS-r$round-$prefix.out"
  prepare_source "$(partition_dir "$RUN_DIR/$sys-$RS-r$round" "$from" move-0)" "$prefix"
  record_at "$sys" "$round" "${prefix}_load1_before" "$(cut -d' ' -f1 /proc/loadavg)"
  res="$(probe "$out" $((MOVE_TIMEOUT + 120)) move "$BOOTSTRAP" move 0 "$to" $((MOVE_TIMEOUT * 1000)) "$POLL_MS" \
    "$CLK_TCK" "${BROKER_PIDS[$from]}" "${BROKER_PIDS[$to]}" "$window")"
  log "$sys ${RS} B round $round: $prefix broker $from -> $to: ${res#RESULT }"
  local ms key
  ms="$(field "$res" move_ms)"
  if [[ ! "$ms" =~ ^[0-9]+$ ]]; then
    record_at "$sys" "$round" "error_$prefix" "${res#RESULT }"
    return 1
  fi
  record_at "$sys" "$round" "${prefix}_s" "$(awk -v m="$ms" 'BEGIN { printf "%.2f", m / 1000 }')"
  for key in isr_ms leader_ms; do
    record_at "$sys" "$round" "${prefix}_${key%_ms}_s" "$(awk -v m="$(field "$res" "$key")" 'BEGIN { printf "%.2f", m / 1000 }')"
  done
  record_at "$sys" "$round" "${prefix}_source_cpu_s" "$(field "$res" source_cpu_s)"
  record_at "$sys" "$round" "${prefix}_target_cpu_s" "$(field "$res" target_cpu_s)"
  record_at "$sys" "$round" "${prefix}_source_jit_s" "$(field "$res" source_jit_s)"
  record_at "$sys" "$round" "${prefix}_target_jit_s" "$(field "$res" target_jit_s)"
  record_at "$sys" "$round" "${prefix}_load1_after" "$(cut -d' ' -f1 /proc/loadavg)"
}

# kafka-reassign-partitions.sh --verify --preserve-throttles, untimed: Kafka's own tool agrees that the move is done.
verify_step() { # system round to
  local json="$RUN_DIR/reassign-$3.json" out="$RUN_DIR/$1-$RS-r$2-verify.out" line
  printf '{"version":1,"partitions":[{"topic":"move","partition":0,"replicas":[%s],"log_dirs":["any"]}]}\n' "$3" >"$json"
  run_step 120 "$out" "$JAVA" "${TOOL_JVM_OPTS[@]}" "$LOG4J_OPT" -cp "$KAFKA_LIB/*" \
    org.apache.kafka.tools.reassign.ReassignPartitionsCommand --bootstrap-server "$BOOTSTRAP" --verify \
    --preserve-throttles --reassignment-json-file "$json" || true
  line="$(grep -m1 'Reassignment of partition' "$out" || tail -n 1 "$out")"
  log "$1 ${RS} B round $2: --verify --preserve-throttles: $line"
  [[ "$line" == *"is completed"* ]] || record_at "$1" "$2" error_verify "$line"
}

# The steady producer: RESULT of MoveProbe steady (in the background when a stop file is used).
steady_fields() { # system round label result
  local key
  for key in count p50_ms p99_ms p999_ms max_ms errors; do
    record_at "$1" "$2" "steady_${3}_$key" "$(field "$4" "$key")"
  done
}

steady_phase() { # system round dir from to
  local sys="$1" round="$2" from="$4" to="$5" res stop="$RUN_DIR/steady-stop" window="$RUN_DIR/steady-window" out pid
  create_rf1 "$sys" "$round" steady 2 || return 0
  record_at "$sys" "$round" steady_leaders "$LEADERS"
  rm -f "$stop" "$window"
  log "$sys ${RS} B round $round: steady producer ${STEADY_RATE}/s x $STEADY_RECORD_SIZE B for ${STEADY_SECONDS}s, no move"
  res="$(probe "$RUN_DIR/$sys-$RS-r$round-steady-base.out" $((STEADY_SECONDS + 120)) steady "$BOOTSTRAP" steady \
    "$STEADY_RATE" "$STEADY_RECORD_SIZE" $((STEADY_SECONDS * 1000)) 3000 "$stop" "$window")"
  log "$sys ${RS} B round $round: steady without move: ${res#RESULT }"
  steady_fields "$sys" "$round" base "$res"
  out="$RUN_DIR/$sys-$RS-r$round-steady-move.out"
  start_jvm "$out" -Xmx512m "$LOG4J_OPT" -cp "$PROBE_CLASSES:$KAFKA_LIB/*" MoveProbe steady "$BOOTSTRAP" steady \
    "$STEADY_RATE" "$STEADY_RECORD_SIZE" $(((MOVE_TIMEOUT + 60) * 1000)) 3000 "$stop" "$window"
  pid="$LAST_PID"
  sleep 5
  move_step "$sys" "$round" "$from" "$to" moveback "$window" || true
  touch "$stop"
  for _ in $(seq 1 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  res="$(grep '^RESULT' "$out" | tail -n 1 || echo "RESULT failed")"
  log "$sys ${RS} B round $round: steady during the move back: ${res#RESULT }"
  [[ -f "$window" ]] && steady_fields "$sys" "$round" move "$res"
  rm -f "$stop" "$window"
}

# IN_SERVICE=1: the cluster serves a producer, consumers and moves of topic `service` before the measured partition
# exists (see the header); fails the system run (error_service) when a step does.
consume_all() { # system round topic records label
  local out="$RUN_DIR/$1-$RS-r$2-$5.out" row
  run_step "$FILL_TIMEOUT" "$out" "$JAVA" "${TOOL_JVM_OPTS[@]}" "$LOG4J_OPT" -cp "$KAFKA_LIB/*" \
    org.apache.kafka.tools.ConsumerPerformance --bootstrap-server "$BOOTSTRAP" --topic "$3" --messages "$4" \
    --timeout 60000 --group "$5-$$" || true
  row="$(grep -E '^[0-9]{4}-' "$out" | tail -n 1 || true)"
  [[ -n "$row" && "$(awk -F', *' '{ print $5 }' <<<"$row")" -ge "$4" ]] || {
    record_at "$1" "$2" error_service "$5: ConsumerPerformance read less than $4 records: $(tail -n 1 "$out" | cut -c1-200)"
    return 1
  }
  log "$1 ${RS} B round $2: $5: read $4 records ($(awk -F', *' '{ print $3 }' <<<"$row") MB)"
}

# SERVICE_CHATTY_SECONDS of one produce request per record on topic `chatter`, tailed by a consumer.
chatty_step() { # system round
  local sys="$1" round="$2" n=$(( SERVICE_CHATTY_SECONDS * SERVICE_CHATTY_RATE )) res reader out
  (( SERVICE_CHATTY_SECONDS > 0 )) || return 0
  create_rf1 "$sys" "$round" chatter 2 || return 1
  rm -f "$RUN_DIR/chatter-stop" "$RUN_DIR/chatter-window" # neither is written: every record counts, none stops it
  out="$RUN_DIR/$sys-$RS-r$round-service-chatter-read.out"
  start_jvm "$out" "${TOOL_JVM_OPTS[@]}" "$LOG4J_OPT" -cp "$KAFKA_LIB/*" org.apache.kafka.tools.ConsumerPerformance \
    --bootstrap-server "$BOOTSTRAP" --topic chatter --messages "$n" --timeout 60000 --group "chatter-$$"
  reader="$LAST_PID"
  log "$sys ${RS} B round $round: in service: ${SERVICE_CHATTY_RATE} produce requests/s on chatter for ${SERVICE_CHATTY_SECONDS}s, tailed"
  res="$(probe "$RUN_DIR/$sys-$RS-r$round-service-chatter.out" $((SERVICE_CHATTY_SECONDS + 120)) steady "$BOOTSTRAP" \
    chatter "$SERVICE_CHATTY_RATE" 100 $((SERVICE_CHATTY_SECONDS * 1000)) 0 "$RUN_DIR/chatter-stop" "$RUN_DIR/chatter-window")"
  log "$sys ${RS} B round $round: in service: chatter: ${res#RESULT }"
  for _ in $(seq 1 30); do kill -0 "$reader" 2>/dev/null || break; sleep 0.1; done # it may wait for the last few
  kill "$reader" 2>/dev/null || true
  wait "$reader" 2>/dev/null || true
  [[ "$(field "$res" count)" =~ ^[1-9][0-9]*$ && "$(field "$res" errors)" == 0 ]] || {
    record_at "$sys" "$round" error_service "chatter: ${res#RESULT }"
    return 1
  }
}

service_phase() { # system round
  local sys="$1" round="$2" from to n i res out t0 summary
  t0="$(date +%s%N)"
  create_rf1 "$sys" "$round" service 1 || return 1
  from="${LEADERS%%:*}"; to=$(( from == 1 ? 2 : 1 ))
  n=$(( SERVICE_MB * 1048576 / (RS * 65 / 100 + 1) ))
  out="$RUN_DIR/$sys-$RS-r$round-service-produce.out"
  log "$sys ${RS} B round $round: in service: ProducerPerformance $n x $RS B into service-0 on broker $from"
  run_step "$FILL_TIMEOUT" "$out" "$JAVA" "${TOOL_JVM_OPTS[@]}" "$LOG4J_OPT" -cp "$KAFKA_LIB/*" \
    org.apache.kafka.tools.ProducerPerformance --topic service --num-records "$n" --record-size "$RS" --throughput -1 \
    --producer-props "bootstrap.servers=$BOOTSTRAP" acks=1 "compression.type=$COMPRESSION" linger.ms=5 || true
  summary="$(grep -E '^[0-9]+ records sent, .* 99\.9th' "$out" | tail -n 1 || true)"
  [[ -n "$summary" ]] || { record_at "$sys" "$round" error_service "service producer: $(tail -n 1 "$out" | cut -c1-200)"; return 1; }
  consume_all "$sys" "$round" service "$n" service-read-1 || return 1
  chatty_step "$sys" "$round" || return 1
  for i in $(seq 1 "$SERVICE_MOVES"); do
    out="$RUN_DIR/$sys-$RS-r$round-service-move-$i.out"
    res="$(probe "$out" $((MOVE_TIMEOUT + 120)) move "$BOOTSTRAP" service 0 "$to" $((MOVE_TIMEOUT * 1000)) "$POLL_MS" \
      "$CLK_TCK" "${BROKER_PIDS[$from]}" "${BROKER_PIDS[$to]}" "$RUN_DIR/window-unused")"
    log "$sys ${RS} B round $round: in service: move $i of service-0, broker $from -> $to: ${res#RESULT }"
    [[ "$(field "$res" move_ms)" =~ ^[0-9]+$ ]] || { record_at "$sys" "$round" error_service "move $i: ${res#RESULT }"; return 1; }
    local swap="$from"; from="$to"; to="$swap"
  done
  consume_all "$sys" "$round" service "$n" service-read-2 || return 1
  record_at "$sys" "$round" service_s "$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')"
}

run_system() { # system round
  local sys="$1" round="$2" dir="$RUN_DIR/$1-$RS-r$2" source target pdir
  log "== $sys, ${RS} B records, round $round"
  # The follower-fetch row turns the file path off (it is on by default); the file row takes the given overrides.
  SLUICE_OVERRIDES=(sluice.move.file.transfer.enable=false)
  [[ $sys != sluice-file ]] || SLUICE_OVERRIDES=("${FILE_PATH_OVERRIDES[@]}")
  local kind=sluice
  [[ $sys != kafka ]] || kind=kafka
  if start_cluster "$kind" "$dir"; then
    if [[ "$IN_SERVICE" == 1 ]] && ! service_phase "$sys" "$round"; then
      log "$sys ${RS} B round $round: the in-service phase failed; no move measured"
    elif create_rf1 "$sys" "$round" move 1; then
      source="${LEADERS%%:*}"; target=$(( source == 1 ? 2 : 1 ))
      record_at "$sys" "$round" source_broker "$source"
      if fill "$sys" "$round" "$dir" "$source"; then
        pdir="$(partition_dir "$dir" "$source" move-0)"
        sync -f "$pdir" && sleep 2
        evict_if_cold "$pdir"
        [[ "$FLOOR" != 1 ]] || floor_step "$sys" "$round" "$pdir"
        if move_step "$sys" "$round" "$source" "$target" move; then
          record_at "$sys" "$round" target_partition_mb "$(mb "$(log_bytes "$(partition_dir "$dir" "$target" move-0)")")"
          verify_step "$sys" "$round" "$target"
          if [[ "$WARM_MOVES" == 1 ]] && move_step "$sys" "$round" "$target" "$source" back; then
            move_step "$sys" "$round" "$source" "$target" warm || true
          fi
          [[ "$PRODUCE_DURING" != 1 ]] || steady_phase "$sys" "$round" "$dir" "$target" "$source"
        fi
      fi
    fi
  else
    record_at "$sys" "$round" error_cluster "cluster did not start (logs: $KEEP_DIR/$sys-$RS-r$round-*)"
  fi
  stop_cluster "$sys-$RS-r$round"
  [[ "$KEEP_DATA" == 1 ]] || rm -rf "$dir"
}

# ---- the run ------------------------------------------------------------------------------------------------------
STARTED_AT="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
need_mb=$(( SIZE_MB * 3 + 2048 ))
free_mb="$(df -Pm "$WORK_DIR" | awk 'NR == 2 { print $4 }')"
if (( free_mb < need_mb )); then
  log "only $free_mb MB free under $WORK_DIR; one system run needs about $need_mb MB (source, target, floor copy)"
  exit 1
fi
GIT_HEAD="$(git -C "$REPO_DIR" rev-parse --short HEAD 2>/dev/null || echo unknown)"
fetch_kafka
compile_probes ReplicationProbe.java MoveProbe.java MoveFloor.java
rm -rf "$KEEP_DIR"; mkdir -p "$KEEP_DIR"
: >"$RESULTS"
for RS in ${RECORD_SIZES//,/ }; do
  for round in $(seq 1 "$ROUNDS"); do
    # Alternate: the second round runs the systems in the opposite order.
    order=("${SYSTEMS[@]}")
    (( round % 2 == 1 )) || order=($(printf '%s\n' "${SYSTEMS[@]}" | tac))
    for sys in "${order[@]}"; do run_system "$sys" "$round"; done
  done
done
LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)"
cp "$RUN_DIR"/*.out "$RUN_DIR"/*.window "$KEEP_DIR"/ 2>/dev/null || true
cp "$RESULTS" "$KEEP_DIR/results.tsv"

# ---- the report ---------------------------------------------------------------------------------------------------
CPU_MODEL="$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//')"
NPROC="$(nproc)"; JAVA_VERSION="$("$JAVA" -version 2>&1 | head -n 1)"; KERNEL="$(uname -r)"
SYSTEMS_RUN="${SYSTEMS[*]}"
export RESULTS STAMP WORK_DIR STARTED_AT LOAD_BEFORE LOAD_AFTER COMMAND CPU_MODEL KAFKA_VERSION SIZE_MB RECORD_SIZES \
  COMPRESSION SEGMENT_MB ROUNDS WARM_MOVES IN_SERVICE SERVICE_MB SERVICE_MOVES SERVICE_CHATTY_SECONDS SERVICE_CHATTY_RATE ORDER POLL_MS FLOOR FLOOR_WRITES COLD PRODUCE_DURING STEADY_RATE STEADY_RECORD_SIZE STEADY_SECONDS \
  SLUICE_FILE_PATH_OVERRIDES BROKER_HEAP COORD_HEAP KEEP_DIR NPROC JAVA_VERSION KERNEL SYSTEMS_RUN GIT_HEAD
python3 "$SCRIPT_DIR/move-report.py"
