#!/usr/bin/env python3
"""Where one process spent its CPU during a move: `perf script` samples of PID inside the windows of move files.

A profile taken system wide with wall-clock timestamps, around a run of run-move-comparison.sh whose brokers write
perf maps for their JIT code:

  perf record -a -g -F 499 -k CLOCK_REALTIME -o perf.data &
  EXTRA_BROKER_JVM_OPTS="-XX:+PreserveFramePointer -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit" \\
    SIZE_MB=1024 RECORD_SIZES=1000 ROUNDS=1 SLUICE_FILE_PATH_OVERRIDES=sluice.move.file.transfer.enable=true \\
    sluice-bench/peer/run-move-comparison.sh --only sluice-file
  kill -INT %1
  perf script -i perf.data -F comm,pid,tid,time,ip,sym,dso | \\
    sluice-bench/peer/perf-window.py PID sluice-bench/peer/target/move-last-run/sluice-file-1000-r1-warm.window

PID is the broker (the run's log names each broker's pid); each window file holds "start_ms end_ms" (epoch
milliseconds), as MoveProbe writes it for every move. Prints the samples per thread name, then for the busiest
threads the frames most often on top (self) and anywhere in the stack (inclusive). Samples / frequency = CPU seconds.
"""
import argparse
import collections
import re
import sys

HEADER = re.compile(r"^(\S.*?)\s+(\d+)/(\d+)\s+(\d+\.\d+):")
OFFSET = re.compile(r"\+0x[0-9a-f]+")


def windows(paths):
    spans = []
    for path in paths:
        with open(path) as f:
            start, end = f.read().split()[:2]
            spans.append((int(start), int(end)))
    return spans


def samples(lines, pid, spans):
    """Yields (thread name, frames leaf first) of PID's samples inside any span."""
    keep, comm, frames = False, None, []
    for line in lines:
        if not line.strip():
            if keep:
                yield comm, frames
            keep, frames = False, []
            continue
        header = HEADER.match(line)
        if header and not line[0].isspace():
            millis = float(header.group(4)) * 1000
            comm = header.group(1).strip()
            keep = header.group(2) == pid and any(a <= millis <= b for a, b in spans)
            frames = []
        elif keep:
            parts = line.strip().split(None, 1)
            if len(parts) == 2:
                frames.append(OFFSET.sub("", parts[1])[:160])
    if keep:
        yield comm, frames


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pid")
    parser.add_argument("window_files", nargs="+")
    parser.add_argument("--threads", type=int, default=4, help="busiest threads to break down")
    parser.add_argument("--top", type=int, default=20, help="frames per thread")
    args = parser.parse_args()
    per_thread = collections.Counter()
    self_frames = collections.defaultdict(collections.Counter)
    any_frames = collections.defaultdict(collections.Counter)
    for comm, frames in samples(sys.stdin, args.pid, windows(args.window_files)):
        per_thread[comm] += 1
        if frames:
            self_frames[comm][frames[0]] += 1
        any_frames[comm].update(set(frames))
    print(f"samples {sum(per_thread.values())}")
    for comm, n in per_thread.most_common():
        print(f"{n:7d} {comm}")
    for comm, n in per_thread.most_common(args.threads):
        print(f"\n== {comm}: {n} samples; self")
        for frame, c in self_frames[comm].most_common(args.top):
            print(f"{c:7d} {frame}")
        print(f"-- {comm}: inclusive")
        for frame, c in any_frames[comm].most_common(args.top):
            print(f"{c:7d} {frame}")


if __name__ == "__main__":
    main()
