#!/usr/bin/env bash
# Log cleaner side by side (issue 14): JMH's LogCleanerBenchmark (sluice-bench, io.sluice.bench.clean) cleans one
# dirty compacted log once per iteration, with Sluice's LogCleaner thread and with Apache Kafka 3.9.1's
# kafka.log.Cleaner, on byte-identical input (checked). Each cell (codec:valueBytes:keys) runs both systems back to
# back, kafka first in odd rounds and sluice first in even ones (load on a shared machine drifts over minutes).
# JMH: single shot, WARMUP + ITERATIONS cleans per fork, one fork per system and cell, -prof gc.
# Prints a markdown table (MiB/s of dirty log cleaned, Sluice/Kafka ratio, bytes allocated per clean, offset map
# held) and leaves JMH's JSON and output per run in OUT.
#
# Usage: flock /tmp/heavy.lock sluice-bench/peer/run-cleaner-comparison.sh
# Environment (defaults in brackets):
#   CELLS ["none:100:100000 none:1000:100000 lz4:100:100000 lz4:1000:100000 zstd:100:100000 zstd:1000:100000
#          none:100:1000000"] DIRTY_MB [64] SEGMENT_MB [16] DEDUPE_MB [128] ROUNDS [2] WARMUP [3] ITERATIONS [3]
#   OUT [sluice-bench/peer/target/cleaner-<UTC time>]
# Needs: JDK 17, python3, and from the repository root: mvn -B -q -pl sluice-bench -am package -DskipTests
set -euo pipefail
cd "$(dirname "$0")/../.."

CELLS=${CELLS:-"none:100:100000 none:1000:100000 lz4:100:100000 lz4:1000:100000 zstd:100:100000 zstd:1000:100000 none:100:1000000"}
DIRTY_MB=${DIRTY_MB:-64}
SEGMENT_MB=${SEGMENT_MB:-16}
DEDUPE_MB=${DEDUPE_MB:-128}
ROUNDS=${ROUNDS:-2}
WARMUP=${WARMUP:-3}
ITERATIONS=${ITERATIONS:-3}
OUT=${OUT:-sluice-bench/peer/target/cleaner-$(date -u +%Y%m%dT%H%M%SZ)}
CP='sluice-bench/target/classes:sluice-bench/target/lib/*'
mkdir -p "$OUT"

echo "start $(date -u +%FT%TZ) load: $(cat /proc/loadavg) commit: $(git rev-parse --short HEAD 2>/dev/null || echo ?)" | tee "$OUT/run.log"
for round in $(seq 1 "$ROUNDS"); do
  for cell in $CELLS; do
    IFS=: read -r codec value keys <<< "$cell"
    if (( round % 2 == 1 )); then order="kafka sluice"; else order="sluice kafka"; fi
    for sys in $order; do
      name="r$round-$sys-$codec-$value-$keys"
      echo "== round $round $sys $codec ${value} B $keys keys $(date -u +%T) load: $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$OUT/run.log"
      java -cp "$CP" org.openjdk.jmh.Main "LogCleanerBenchmark.$sys\$" -p codec="$codec" -p valueBytes="$value" \
        -p keys="$keys" -p dirtyMB="$DIRTY_MB" -p segmentMB="$SEGMENT_MB" -p dedupeMB="$DEDUPE_MB" \
        -wi "$WARMUP" -i "$ITERATIONS" -prof gc -rf json -rff "$OUT/$name.json" > "$OUT/$name.txt" 2>&1
      grep -E "^\[cleaner-bench\] $sys " "$OUT/$name.txt" | tail -"$ITERATIONS" | sed -e 's/; read.*//' | tee -a "$OUT/run.log"
    done
  done
done
echo "end $(date -u +%FT%TZ) load: $(cat /proc/loadavg)" | tee -a "$OUT/run.log"
python3 sluice-bench/peer/cleaner-report.py "$OUT" "$ROUNDS" $CELLS | tee "$OUT/report.md"
