#!/usr/bin/env python3
"""Prints Markdown tables from JMH's JSON results (benchmarks/target/results.json by default).

Chunk and byte rates use the stream sizes the benchmarks print at setup, restated here: PERF.md's stream of
10,000 chunks is generated deterministically (ReasoningStream, seed 42), so its size is fixed.

    summarize.py RESULTS.json [SSE_BYTES [JMH_LOG...]]

With JMH logs (the console output of the runs), the DecodeBenchmark rows also get a table per wire format: the
"[setup]" lines there give each body's size and wire-event count, from which MB/s and events/s are derived.
"""
import json
import re
import sys

path = sys.argv[1] if len(sys.argv) > 1 else "target/results.json"
runs = json.load(open(path))

CHUNKS = 10_000
SSE_BYTES = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] else None  # body size of the 10k-chunk stream, if known


def short(r):
    return r["benchmark"].rsplit(".", 2)[-2] + "." + r["benchmark"].rsplit(".", 1)[-1]


def alloc(r):
    sec = r.get("secondaryMetrics", {})
    m = sec.get("gc.alloc.rate.norm")
    return m["score"] if m else None


def median(metric):
    """The median of a metric's measurement iterations (all forks), or its score when JMH kept no raw data."""
    raw = sorted(v for fork in metric.get("rawData") or [] for v in fork)
    if not raw:
        return metric["score"]
    mid = len(raw) // 2
    return raw[mid] if len(raw) % 2 else (raw[mid - 1] + raw[mid]) / 2


def cpu(r):
    """CPU ns per operation from CpuTimeProfiler (median of the iterations), if the run had it."""
    m = r.get("secondaryMetrics", {}).get("cpu.time.norm")
    return median(m) if m else None


def params(r):
    return r.get("params", {})


ccrb = {r["benchmark"].rsplit(".", 1)[-1]: r for r in runs
        if "ChatCompletionsReasoningBenchmark" in r["benchmark"] and params(r).get("chunks") == "10000"}
if ccrb:
    floor = ccrb["floor"]["primaryMetric"]["score"]
    rum = ccrb["ruminate"]["primaryMetric"]["score"]
    print("| contender | streams/s (±err) | chunks/s | MB/s | bytes alloc/chunk | bytes alloc/input byte"
          " | vs floor | Ruminate is × faster |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    order = ["floor", "ruminate", "naive", "langchain4j", "openaiJava", "springAi"]
    for name in order:
        r = ccrb.get(name)
        if not r:
            continue
        s = r["primaryMetric"]["score"]
        err = r["primaryMetric"].get("scoreError")
        err = "" if err is None or err != err else f" ±{err:.2f}"
        a = alloc(r)
        mbs = f"{s * SSE_BYTES / 1e6:.0f}" if SSE_BYTES else "—"
        per_byte = f"{a / SSE_BYTES:.1f}" if SSE_BYTES and a is not None else "—"
        print(f"| {name} | {s:.2f}{err} | {s * CHUNKS / 1e6:.3f} M | {mbs} | "
              f"{a / CHUNKS:,.0f} | {per_byte} | {s / floor:.2f} | {rum / s:.2f} |")
    print()

print("| benchmark | params | score | unit | bytes alloc/op |")
print("| --- | --- | ---: | --- | ---: |")
for r in runs:
    if "ChatCompletionsReasoningBenchmark" in r["benchmark"] and params(r).get("chunks") == "10000":
        continue
    p = ", ".join(f"{k}={v}" for k, v in params(r).items())
    m = r["primaryMetric"]
    score = m["score"]
    extra = ""
    if r["mode"] == "sample":
        pct = m.get("scorePercentiles", {})
        extra = f" (p50 {pct.get('50.0', 0):.0f}, p99 {pct.get('99.0', 0):.0f})"
    a = alloc(r)
    print(f"| {short(r)} | {p} | {score:,.2f}{extra} | {m['scoreUnit']} | {'' if a is None else f'{a:,.0f}'} |")


# Per wire format: framing alone and decode + reduce, from the body sizes and event counts printed at setup.
SETUP = re.compile(r"\[setup\] (\w+): (\d+) chat-completions chunks' content, (\d+) bytes, (\d+) wire events")
WIRES = [("sse", "CHAT_COMPLETIONS", "Chat Completions SSE"), ("anthropic", "ANTHROPIC", "Anthropic SSE"),
         ("responses", "RESPONSES", "Responses SSE"), ("gemini", "GEMINI", "Gemini SSE"),
         ("bedrock", "BEDROCK", "Bedrock event-stream"), ("ndjson", "OLLAMA", "Ollama NDJSON")]
bodies = {}
for log in sys.argv[3:]:
    for line in open(log, encoding="utf-8", errors="replace"):
        m = SETUP.search(line)
        if m:
            bodies[(m.group(1), int(m.group(2)))] = (int(m.group(3)), int(m.group(4)))
decode = {}
for r in runs:
    if ".DecodeBenchmark." in r["benchmark"]:
        p = params(r)
        decode[(r["benchmark"].rsplit(".", 1)[-1], int(p["chunks"]), int(p["piece"]))] = r
if bodies and decode:
    print()
    # Wall-clock rates (bodies/s) fall with the CPU share a loaded machine leaves the benchmark; the rates per CPU
    # second (CpuTimeProfiler's cpu.time.norm, when run with it) do much less. "vs CC" compares events per CPU
    # second (events per wall second without the profiler) with Chat Completions at the same piece size. Medians of
    # the measurement iterations, as PERF.md asks.
    print("| format | piece | stream (CC chunks) | bytes | wire events | frame bodies/s | frame MB/CPU-s | frame M events/CPU-s"
          " | decode+reduce bodies/s | CPU ms/body | MB/CPU-s | k events/CPU-s | alloc B/byte | alloc B/event | vs CC |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for piece in sorted({k[2] for k in decode}, key=lambda x: (x == 1, x)):
        for chunks in sorted({k[1] for k in decode}):
            base = None
            for prefix, wire, label in WIRES:
                # With 1-byte pieces the benchmark reads a tenth of the stream (DecodeBenchmark's setup).
                size = bodies.get((wire, chunks // 10 if piece == 1 else chunks))
                frame = decode.get((prefix + "Frame", chunks, piece))
                full = decode.get((prefix + "DecodeReduce", chunks, piece))
                if size is None or (frame is None and full is None):
                    continue
                nbytes, events = size
                cells = [label, str(piece), f"{chunks // 10 if piece == 1 else chunks:,}", f"{nbytes:,}", f"{events:,}"]
                if frame:
                    f = median(frame["primaryMetric"])
                    per_cpu = 1e9 / cpu(frame) if cpu(frame) else f
                    cells += [f"{f:,.1f}", f"{per_cpu * nbytes / 1e6:,.0f}", f"{per_cpu * events / 1e6:.2f}"]
                else:
                    cells += ["—", "—", "—"]
                if full:
                    d = median(full["primaryMetric"])
                    a = alloc(full)
                    c = cpu(full)
                    per_cpu = 1e9 / c if c else d
                    rate = per_cpu * events
                    if prefix == "sse":
                        base = rate
                    cells += [f"{d:,.1f}", "—" if c is None else f"{c / 1e6:.2f}", f"{per_cpu * nbytes / 1e6:,.0f}",
                              f"{rate / 1e3:,.0f}",
                              "—" if a is None else f"{a / nbytes:.1f}", "—" if a is None else f"{a / events:,.0f}",
                              "—" if base is None else f"{rate / base:.2f}"]
                else:
                    cells += ["—"] * 7
                print("| " + " | ".join(cells) + " |")
