#!/usr/bin/env python3
"""Markdown table of a run-cleaner-comparison.sh run: usage cleaner-report.py OUT ROUNDS CELL..."""
import json
import re
import statistics
import sys

MIB = 1024 * 1024


def load(out, name, system):
    """Measured iterations (ms), -prof gc B/op, and the benchmark's own lines of one JMH run."""
    result = json.load(open(f"{out}/{name}.json"))[0]
    times = [x for iteration in result["primaryMetric"]["rawData"] for x in iteration]
    text = open(f"{out}/{name}.txt").read()
    lines = [l for l in text.splitlines() if l.startswith(f"[cleaner-bench] {system} ")][-len(times):]

    def mean_of(pattern):
        return statistics.mean(float(re.search(pattern, l).group(1)) for l in lines)

    return {
        "times": times,
        "gc_norm": result["secondaryMetrics"]["gc.alloc.rate.norm"]["score"],
        "clean_alloc": mean_of(r"allocated ([\d.]+) MiB by the clean"),
        "setup_alloc": mean_of(r", ([\d.]+) MiB by the setup"),
        "dirty": float(re.search(r": ([\d.]+) MiB dirty", lines[0]).group(1)),
        "map": float(re.search(r"offset map held after a clean: ([\d.]+) MiB", text).group(1)),
    }


def main():
    out, rounds, cells = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    print("| cell (codec, value, keys) | Kafka MiB/s | Sluice MiB/s | Sluice/Kafka (per round) | alloc per clean "
          "Kafka / Sluice | `-prof gc` B/op Kafka / Sluice | offset map held Kafka / Sluice |")
    print("|---|---|---|---|---|---|---|")
    for cell in cells:
        codec, value, keys = cell.split(":")
        runs = {s: [load(out, f"r{r}-{s}-{codec}-{value}-{keys}", s) for r in range(1, rounds + 1)]
                for s in ("kafka", "sluice")}

        def rate(rs):
            return rs[0]["dirty"] / (statistics.mean(t for r in rs for t in r["times"]) / 1000)

        kafka, sluice = rate(runs["kafka"]), rate(runs["sluice"])
        per_round = ", ".join(f"{rate([s]) / rate([k]):.2f}" for k, s in zip(runs["kafka"], runs["sluice"]))

        def mean(system, key):
            return statistics.mean(r[key] for r in runs[system])

        print(f"| {codec}, {value} B, {int(keys):,} | {kafka:.1f} | {sluice:.1f} | **{sluice / kafka:.2f}** "
              f"({per_round}) | {mean('kafka', 'clean_alloc'):.1f} / {mean('sluice', 'clean_alloc'):.1f} MiB | "
              f"{mean('kafka', 'gc_norm') / MIB:.1f} / {mean('sluice', 'gc_norm') / MIB:.1f} MiB | "
              f"{runs['kafka'][0]['map']:.1f} / {runs['sluice'][0]['map']:.1f} MiB |")


if __name__ == "__main__":
    main()
