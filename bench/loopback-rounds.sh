#!/usr/bin/env bash
# The data-path table of README ("The data path against TCP"), by ratios of medians over alternating runs. Each
# round runs iperf3 over 127.0.0.1 (128 KiB and 1 MiB writes) and `jrnic perf --mode bw` (WRITE / READ / SEND at
# 64 KiB and 1 MiB, per message and batched, RDMA only) in turn, --pairs times; a bandwidth row's ratio is the median
# of its runs in the round over the median of iperf3's (64 KiB rows against -l 128K, 1 MiB rows against -l 1M). Then,
# once per round, the rows whose baseline is jrnic perf's own like-for-like TCP: latency (`--mode lat --test all
# --size 64 --reps 3`: busy-polling, blocking, and blocking on virtual threads on JDK 21+) and `--qps 16 --reps 3`,
# each alternating RDMA and TCP three times. Every bandwidth run also records the machine's cores busy and
# core-seconds per GB (`jrnic perf --cpu`; /proc/stat around each iperf3 client).
#
#   bench/loopback-rounds.sh [--out DIR] [--rounds N] [--pairs P] [--iperf-seconds S] [--bw-only] [--quick]
#                            [--summarize-only]
#
# Writes OUT/rounds.csv (round,row,value,min,max,runs,baseline,baseline_value,ratio,host_s_per_gb) and
# OUT/rounds.md (the table, a column per round), raw outputs under OUT/raw/. Default OUT: target/loopback-rounds
# (under the current directory), 3 rounds of 3 pairs, iperf3 for 5 s: about 7 minutes on a 2-core VM. --quick: one
# round of one pair, short runs: a check that the script works, not a measurement. --summarize-only: no runs, the
# table again from OUT/raw (give the --rounds and --pairs it was run with). Traffic only to 127.0.0.1.
# Exit: 0 every row ok, 1 a run failed (see raw/), 2 bad usage or a tool missing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

out="target/loopback-rounds"; rounds=3; pairs=3; iperf_s=5; bw_only=0; quick=0; summarize_only=0
while (( $# )); do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --pairs) pairs="$2"; shift 2 ;;
    --iperf-seconds) iperf_s="$2"; shift 2 ;;
    --bw-only) bw_only=1; shift ;;
    --quick) rounds=1; pairs=1; iperf_s=1; quick=1; shift ;;
    --summarize-only) summarize_only=1; shift ;;
    *) sed -n '11,12p' "$0" >&2; exit 2 ;;
  esac
done
for v in "$rounds" "$pairs" "$iperf_s"; do
  [[ $v =~ ^[1-9][0-9]*$ ]] || { echo "loopback-rounds: --rounds, --pairs and --iperf-seconds take positive whole numbers: $v" >&2; exit 2; }
done
(( summarize_only )) || command -v iperf3 >/dev/null || { echo "loopback-rounds: iperf3 not found (Debian package iperf3)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "loopback-rounds: python3 not found (turns the runs into the table)" >&2; exit 2; }

raw="$out/raw"
failed=0
if (( ! summarize_only )); then
  "$root/jrnic" --version >/dev/null # builds cli/target/jrnic.jar when sources changed
  jar="$root/cli/target/jrnic.jar"
  mkdir -p "$raw"
  rm -f "$raw"/*
  iport=15201
  if (( quick )); then
    bw_opts=(--iterations 256); lat_opts=(--iterations 300 --reps 1); qps_opts=(--reps 1 --run-seconds 1)
  else
    bw_opts=(); lat_opts=(--reps 3); qps_opts=(--reps 3)
  fi

  # this machine's busy and total ticks (/proc/stat: busy = user nice system irq softirq; total adds idle iowait steal)
  ticks() { local _c u n s i w q sq st _r; read -r _c u n s i w q sq st _r < /proc/stat; echo "$((u+n+s+q+sq)) $((u+n+s+q+sq+i+w+st))"; }
  cpus="$(grep -c '^cpu[0-9]' /proc/stat)"

  # one iperf3 run over loopback: a one-off server, the client with -l SIZE for --iperf-seconds, JSON and ticks kept
  iperf() { # tag size
    local t0
    iperf3 -s -1 -B 127.0.0.1 -p "$iport" >/dev/null 2>&1 &
    local spid=$!
    sleep 0.3
    t0="$(ticks)"
    iperf3 -c 127.0.0.1 -p "$iport" -t "$iperf_s" -l "$2" -J >"$raw/iperf3-$1-$2.json" || failed=1
    echo "$t0 $(ticks) $cpus" >"$raw/iperf3-$1-$2.ticks"
    # the one-off server ends after its test; one whose client never reached it (iperf3 -J exits 0 even then; the
    # JSON's error fails the run in the summary) would wait for ever, and the script with it: 5 s, then it is ended
    local _
    for _ in $(seq 1 50); do kill -0 "$spid" 2>/dev/null || break; sleep 0.1; done
    kill "$spid" 2>/dev/null || true
    wait "$spid" 2>/dev/null || true
  }

  {
    echo "host: $(uname -r), $(grep -c '^processor' /proc/cpuinfo) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)"
    echo "TCP congestion control: $(cat /proc/sys/net/ipv4/tcp_congestion_control)"
    echo "java: $(java -version 2>&1 | head -1)"
    echo "jrnic: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet 2>/dev/null || echo ' (uncommitted changes)')"
    echo "started: $(date -u +%FT%TZ); rounds $rounds, pairs $pairs, iperf3 ${iperf_s} s"
  } >"$out/host.txt"
  cat "$out/host.txt"

  for r in $(seq 1 "$rounds"); do
    for p in $(seq 1 "$pairs"); do
      echo "round $r/$rounds, pair $p/$pairs: iperf3, then jrnic perf --mode bw"
      iperf "r$r-p$p" 131072
      iperf "r$r-p$p" 1048576
      java -jar "$jar" perf --mode bw --test all --size 65536,1048576 --reps 1 --no-tcp --cpu --format csv "${bw_opts[@]}" \
        >"$raw/bw-r$r-p$p.csv" 2>"$raw/bw-r$r-p$p.err" || failed=1
    done
    if (( ! bw_only )); then
      echo "round $r/$rounds: jrnic perf --mode lat, then --qps 16"
      java -jar "$jar" perf --mode lat --test all --size 64 --format csv "${lat_opts[@]}" \
        >"$raw/lat-r$r.csv" 2>"$raw/lat-r$r.err" || failed=1
      java -jar "$jar" perf --qps 16 --cpu "${qps_opts[@]}" >"$raw/qps-r$r.txt" 2>&1 || failed=1
    fi
  done
fi

python3 - "$raw" "$out" "$rounds" "$pairs" <<'EOF' || failed=1
import csv, json, os, re, statistics, sys
raw, out, rounds, pairs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
ok = True
rows = []  # round, row, value, min, max, runs, baseline, baseline_value, ratio, host_s_per_gb

def iperf_run(tag, size):
    """MB/s and core-seconds per GB of one iperf3 client run, or None"""
    try:
        e = json.load(open(f"{raw}/iperf3-{tag}-{size}.json"))["end"]
        mbps = e["sum_received"]["bits_per_second"] / 8e6
        b0, t0, b1, t1, n = (int(x) for x in open(f"{raw}/iperf3-{tag}-{size}.ticks").read().split())
        cores = (b1 - b0) / (t1 - t0) * n
        return mbps, cores * e["sum_sent"]["seconds"] / (e["sum_received"]["bytes"] / 1e9)
    except (OSError, ValueError, KeyError, ZeroDivisionError):
        return None

def med(v):
    return statistics.median(v) if v else float("nan")

IPERF_FOR = {65536: 131072, 1048576: 1048576}  # a row's message size -> the iperf3 write length it is set against
ROW_LABEL = {65536: "64 KiB", 1048576: "1 MiB"}
IPERF_LABEL = {131072: "128K", 1048576: "1M"}

for r in range(1, rounds + 1):
    base = {}
    for size in IPERF_FOR.values():
        runs = [x for x in (iperf_run(f"r{r}-p{p}", size) for p in range(1, pairs + 1)) if x]
        ok = ok and len(runs) == pairs
        v = [x[0] for x in runs]
        base[size] = med(v)
        label = f"iperf3 -l {IPERF_LABEL[size]}, MB/s"
        rows.append([r, label, med(v), min(v, default=float("nan")), max(v, default=float("nan")), len(v), "", "", "",
                     med([x[1] for x in runs])])
    bw = {}
    for p in range(1, pairs + 1):
        path = f"{raw}/bw-r{r}-p{p}.csv"
        if not os.path.exists(path) or os.path.getsize(path) == 0:
            ok = False
            continue
        for e in csv.DictReader(open(path)):
            ok = ok and e["result"] == "ok"
            if e["result"] != "ok":
                continue
            kind = "batched" if e["kind"] == "bw" else "per message"
            key = (e["test"].upper(), int(e["bytes"]), kind)
            bw.setdefault(key, []).append((float(e["bw_mb_s"]), float(e["host_s_per_gb"] or "nan")))
    tests = ["WRITE", "READ", "SEND"]
    for (test, size, kind), runs in sorted(bw.items(), key=lambda i: (i[0][2] != "batched", i[0][1], tests.index(i[0][0]))):
        v = [x[0] for x in runs]
        b = base[IPERF_FOR[size]]
        rows.append([r, f"RDMA {test} {ROW_LABEL[size]} {kind}, MB/s", med(v), min(v), max(v),
                     len(v), f"iperf3 -l {IPERF_LABEL[IPERF_FOR[size]]}", b, med(v) / b, med([x[1] for x in runs])])
    path = f"{raw}/lat-r{r}.csv"
    if os.path.exists(path):
        names = {"lat": "busy-polling", "lat-block": "blocking", "lat-block-vt": "blocking, virtual threads"}
        for e in csv.DictReader(open(path)):
            if e["result"] == "skipped":  # virtual threads before JDK 21
                continue
            ok = ok and e["result"] == "ok"
            if e["result"] != "ok" or not e["t_p50_us"]:
                continue
            rows.append([r, f"{names.get(e['kind'], e['kind'])} {e['test'].upper()} 64 B latency p50, us",
                         float(e["t_p50_us"]), float(e["rdma_min"] or "nan"), float(e["rdma_max"] or "nan"),
                         int(e["reps"] or 0), "jrnic perf's TCP", float(e["tcp_t_p50_us"]), float(e["ratio"]), ""])
    path = f"{raw}/qps-r{r}.txt"
    if os.path.exists(path):
        t = open(path).read()
        m, mt, s = (re.search(p, t, re.M) for p in (r"^RDMA WRITE\s+([\d,]+) MB/s\s+\(([\d,]+)-([\d,]+)\)",
                                               r"^TCP\s+([\d,]+) MB/s", r"RDMA [\d.]+ cores busy, ([\d.]+) core-s/GB"))
        ok = ok and m is not None and mt is not None and "FAILED" not in t
        if m and mt:
            n = lambda x: float(x.replace(",", ""))
            rows.append([r, "16 QPs RDMA WRITE (--qps 16), MB/s", n(m.group(1)), n(m.group(2)), n(m.group(3)),
                         "", "16 java.nio streams", n(mt.group(1)), n(m.group(1)) / n(mt.group(1)),
                         float(s.group(1)) if s else ""])

with open(f"{out}/rounds.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["round", "row", "value", "min", "max", "runs", "baseline", "baseline_value", "ratio", "host_s_per_gb"])
    for x in rows:
        w.writerow([f"{v:.4f}" if isinstance(v, float) else v for v in x])

# the table: one line per row, a column per round; bandwidth rows give the ratio (and the MB/s), others the ratio
order, cells = [], {}
for x in rows:
    if x[1] not in cells:
        order.append(x[1])
        cells[x[1]] = {}
    r, label, value, ratio = x[0], x[1], x[2], x[8]
    cells[label][r] = (f"{value:,.0f}" if label.startswith("iperf3") else f"**{ratio:.2f}** ({value:,.0f})"
                       if "MB/s" in label else f"**{ratio:.2f}** ({value:.2f})")
with open(f"{out}/rounds.md", "w") as f:
    f.write("| row (ratio to its baseline: median over median) | " + " | ".join(f"round {r}" for r in range(1, rounds + 1)) + " |\n")
    f.write("|---|" + "---|" * rounds + "\n")
    for label in order:
        f.write(f"| {label} | " + " | ".join(cells[label].get(r, "") for r in range(1, rounds + 1)) + " |\n")
print(open(f"{out}/rounds.md").read())
sys.exit(0 if ok else 1)
EOF
echo "loopback-rounds: wrote $out/rounds.csv and $out/rounds.md; raw outputs in $raw"
exit "$failed"
