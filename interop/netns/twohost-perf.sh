#!/usr/bin/env bash
# jrnic perf across two network namespaces (twohost.sh), next to iperf3 on the same path in the same run, for every
# MTU x rate x loss x TCP congestion control asked: RDMA WRITE / READ / SEND bandwidth (and jrnic perf's own
# java.nio TCP baseline) at each size, latency p50 / p99 / p99.9 at 64 B and 64 KiB, iperf3 at each size as its
# write length. Every bandwidth row also says how many cores this machine kept busy and its core-seconds per GB
# (host_cores, host_s_per_gb: /proc/stat over the run, both namespaces' work; jrnic perf --cpu for jrnic and
# java.nio, the script around each iperf3 client). Writes
# OUT/twohost.csv (header: LossChart.HEADER), OUT/twohost.png and .svg (jrnic perf --loss-chart), and every raw output
# under OUT/raw/. Must run as root; uses only the harness's own namespaces and addresses.
#
#   twohost-perf.sh [--out DIR] [--mtus "1500 9000"] [--rates "none 1gbit 10gbit"] [--losses "0 0.01 0.1 1"]
#                   [--loss-dir both|ab|ba] [--sizes "65536 1048576"] [--volume MIB] [--seconds S] [--reps K]
#                   [--lat-iterations N] [--iperf-seconds S] [--ccs "bbr reno"] [--rto-min T] [--quickack] [--quick]
#
# ab is a -> b: the perf client (and iperf3 client) is in a, the server in b, so WRITE and SEND data go ab and
# READ data go ba; loss on "both" (the default) meets every operation's data and its ACKs alike. --quick: one MTU
# (1500), no rate limit, losses 0 and 1 %, 16 MiB per run, one repetition: a check that the runner works (seconds),
# not a measurement. --seconds S (whole seconds): iperf3 runs first on each row, and each jrnic perf run moves at
# least what iperf3's rate moves in S seconds (--volume is the floor): under loss a few of TCP's timeouts (200 ms
# each at the kernel's minimum RTO) decide a run that lasts a fraction of a second, so runs must be as long as
# iperf3's. --ccs: the TCP congestion controls to run under (twohost.sh up --cc; default: the one a new namespace
# inherits from the host), recorded in the CSV's cc column. --rto-min: the minimum RTO of the route between
# the hosts (twohost.sh up --rto-min, e.g. 10ms; iperf3's and jrnic's sockets alike), added to the cc column
# ("reno rto_min 10ms"). --quickack: no delayed ACKs on that route (twohost.sh up --quickack), added to the cc
# column ("reno quickack"). Default OUT: target/twohost-perf (under the
# current directory). Exit: 0 done and every row ok, 1 a row failed (see its result column and raw/), 2 bad usage or
# harness unavailable.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
H="$here/twohost.sh"

out="target/twohost-perf"; mtus="1500 9000"; rates="none 1gbit 10gbit"; losses="0 0.01 0.1 1"; loss_dir=both
sizes="65536 1048576"; volume=256; seconds=0; reps=3; lat_iter=2000; iperf_s=5; ccs=inherited; rto_min=""; quickack=""
while (( $# )); do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --mtus) mtus="$2"; shift 2 ;;
    --rates) rates="$2"; shift 2 ;;
    --losses) losses="$2"; shift 2 ;;
    --loss-dir) loss_dir="$2"; shift 2 ;;
    --sizes) sizes="$2"; shift 2 ;;
    --volume) volume="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --reps) reps="$2"; shift 2 ;;
    --lat-iterations) lat_iter="$2"; shift 2 ;;
    --iperf-seconds) iperf_s="$2"; shift 2 ;;
    --ccs) ccs="$2"; shift 2 ;;
    --rto-min) rto_min="$2"; shift 2 ;;
    --quickack) quickack=1; shift ;;
    --quick) mtus=1500; rates=none; losses="0 1"; volume=16; reps=1; lat_iter=500; iperf_s=1; shift ;;
    *) sed -n '11,13p' "$0" >&2; exit 2 ;;
  esac
done
case "$loss_dir" in both|ab|ba) ;; *) echo "twohost-perf: --loss-dir both|ab|ba" >&2; exit 2 ;; esac
[[ $seconds =~ ^[0-9]+$ ]] || { echo "twohost-perf: --seconds takes whole seconds: $seconds" >&2; exit 2; }
command -v iperf3 >/dev/null || { echo "twohost-perf: iperf3 not found" >&2; exit 2; }
command -v python3 >/dev/null || { echo "twohost-perf: python3 not found (turns the CSVs into one)" >&2; exit 2; }

"$root/jrnic" --version >/dev/null # builds cli/target/jrnic.jar when sources changed
jar="$root/cli/target/jrnic.jar"
mkdir -p "$out/raw"
csv="$out/twohost.csv"
b_addr="$("$H" addr b)"
port=18515
iport=5201
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  "$H" down
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "mtu,rate,loss_pct,loss_dir,cc,tool,test,bytes,bw_mb_s,p50_us,p99_us,p999_us,retransmits,result,host_cores,host_s_per_gb" > "$csv"
# this machine's busy and total ticks (/proc/stat: busy = user nice system irq softirq; total adds idle iowait steal)
ticks() { local _c u n s i w q sq st _r; read -r _c u n s i w q sq st _r < /proc/stat; echo "$((u+n+s+q+sq)) $((u+n+s+q+sq+i+w+st))"; }
cpus="$(grep -c '^cpu[0-9]' /proc/stat)"
iperf_runs() {
  local tag="$1" size ipid t0
  for size in $sizes; do
    "$H" exec b iperf3 -s -1 -B "$b_addr" -p "$iport" >/dev/null 2>&1 &
    ipid=$!; pids+=("$ipid")
    sleep 0.5
    t0="$(ticks)"
    "$H" exec a iperf3 -c "$b_addr" -p "$iport" -t "$iperf_s" -l "$size" -J >"$out/raw/iperf3-$tag-$size.json" || failed=1
    echo "$t0 $(ticks) $cpus" >"$out/raw/iperf3-$tag-$size.ticks"
    # the one-off server ends after its test; one whose client never reached it (iperf3 -J exits 0 even then; the
    # JSON's error fails the row) would wait for ever: 5 s, then it is ended (down ends whatever is left in b)
    for _ in $(seq 1 50); do kill -0 "$ipid" 2>/dev/null || break; sleep 0.1; done
    kill "$ipid" 2>/dev/null || true
    wait "$ipid" 2>/dev/null || true
  done
}
# MiB per jrnic perf run at a size: --volume, or with --seconds at least what iperf3's rate on this row moves in
# that time, so that a run under loss meets as many of TCP's recoveries and timeouts as iperf3's did
row_mib() {
  local tag="$1" size="$2" mib="$volume" rated
  if (( seconds > 0 )); then
    rated="$(python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["end"]; print(int(e["sum_received"]["bits_per_second"] / 8 * float(sys.argv[2]) / 1048576))' \
      "$out/raw/iperf3-$tag-$size.json" "$seconds" 2>/dev/null || echo 0)"
    (( rated > mib )) && mib="$rated"
  fi
  echo "$mib"
}
failed=0
for cc_asked in $ccs; do for mtu in $mtus; do for rate in $rates; do for loss in $losses; do
  la=0; lb=0
  [[ $loss_dir != ba ]] && la="$loss"
  [[ $loss_dir != ab ]] && lb="$loss"
  up_args=()
  [[ $rate != none ]] && up_args=(--rate "$rate")
  [[ $cc_asked != inherited ]] && up_args+=(--cc "$cc_asked")
  [[ -n $rto_min ]] && up_args+=(--rto-min "$rto_min")
  [[ -n $quickack ]] && up_args+=(--quickack)
  "$H" up --mtu "$mtu" "${up_args[@]}" --loss-ab "$la" --loss-ba "$lb"
  cc="$("$H" cc a)"
  [[ -n $rto_min ]] && cc="$cc rto_min $rto_min"
  [[ -n $quickack ]] && cc="$cc quickack"
  tag="mtu$mtu-$rate-loss$loss-$loss_dir-${cc// /-}"

  # iperf3 on the same path (server in b, client in a, one run per size as the write length): after jrnic perf,
  # or before it with --seconds, whose volumes come from iperf3's rate
  (( seconds == 0 )) || iperf_runs "$tag"
  # jrnic perf: server in b, client in a
  slog="$out/raw/perf-server-$tag.txt"
  "$H" exec b java -jar "$jar" perf --server --port "$port" >"$slog" 2>&1 &
  spid=$!; pids+=("$spid")
  for _ in $(seq 1 300); do grep -q "jrnic perf server: RDMA on" "$slog" && break; sleep 0.1; done
  grep -q "jrnic perf server: RDMA on" "$slog" || { echo "twohost-perf: perf server did not start: $slog" >&2; exit 2; }
  for size in $sizes; do
    iters=$(( $(row_mib "$tag" "$size") * 1048576 / size )); (( iters < 16 )) && iters=16
    "$H" exec a java -jar "$jar" perf --connect "$b_addr" --port "$port" --format csv --mode bw --size "$size" \
      --iterations "$iters" --reps "$reps" >"$out/raw/perf-bw-$tag-$size.csv" 2>>"$out/raw/perf-client-$tag.txt" \
      || failed=1
  done
  "$H" exec a java -jar "$jar" perf --connect "$b_addr" --port "$port" --format csv --mode lat --size 64,65536 \
    --iterations "$lat_iter" --reps "$reps" >"$out/raw/perf-lat-$tag.csv" 2>>"$out/raw/perf-client-$tag.txt" || failed=1
  kill "$spid" 2>/dev/null || true; wait "$spid" 2>/dev/null || true

  (( seconds > 0 )) || iperf_runs "$tag"

  python3 - "$csv" "$mtu" "$rate" "$loss" "$loss_dir" "$out/raw" "$tag" "$sizes" "$cc" <<'EOF' || failed=1
import csv, json, sys, os
out, mtu, rate, loss, ldir, raw, tag, sizes, cc = sys.argv[1:10]
rows, ok = [], True
def perf(path):
    global ok
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        ok = False
        return
    for r in csv.DictReader(open(path)):
        res = r["result"]
        ok = ok and res in ("ok", "skipped")  # skipped: jrnic perf's virtual-thread rows on a JDK before 21
        if r["kind"] == "bw":
            rows.append(["jrnic", r["test"].upper(), r["bytes"], r["bw_mb_s"], "", "", "", "", res,
                         r.get("host_cores", ""), r.get("host_s_per_gb", "")])
            rows.append(["java.nio", r["test"].upper(), r["bytes"], r["tcp_bw_mb_s"], "", "", "", "", res,
                         r.get("tcp_host_cores", ""), r.get("tcp_host_s_per_gb", "")])
        elif r["kind"] == "lat":
            rows.append(["jrnic", r["test"].upper(), r["bytes"], "", r["t_p50_us"], r["t_p99_us"], r["t_p999_us"], "", res,
                         "", ""])
            rows.append(["java.nio", r["test"].upper(), r["bytes"], "", r["tcp_t_p50_us"], r["tcp_t_p99_us"],
                         r["tcp_t_p999_us"], "", res, "", ""])
def iperf_cpu(path, seconds, nbytes):
    """host cores and core-seconds per GB over the iperf3 client's run, from the ticks the script took around it"""
    try:
        b0, t0, b1, t1, n = (int(x) for x in open(path).read().split())
        cores = (b1 - b0) / (t1 - t0) * n
        return "%.3f" % cores, "%.4f" % (cores * seconds / (nbytes / 1e9))
    except (OSError, ValueError, ZeroDivisionError):
        return "", ""
for s in sizes.split():
    perf(f"{raw}/perf-bw-{tag}-{s}.csv")
    try:
        j = json.load(open(f"{raw}/iperf3-{tag}-{s}.json"))
        e = j["end"]
        # the ticks span the client's whole run (set-up included), so the cores are over its wall time, which the
        # JSON's sender seconds approximate
        cores, per_gb = iperf_cpu(f"{raw}/iperf3-{tag}-{s}.ticks", e["sum_sent"]["seconds"], e["sum_received"]["bytes"])
        rows.append(["iperf3", "stream", s, "%.2f" % (e["sum_received"]["bits_per_second"] / 8e6), "", "", "",
                     str(e["sum_sent"].get("retransmits", "")), "ok", cores, per_gb])
    except (OSError, ValueError, KeyError):
        ok = False
        rows.append(["iperf3", "stream", s, "", "", "", "", "", "FAILED", "", ""])
perf(f"{raw}/perf-lat-{tag}.csv")
with open(out, "a", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    for r in rows:
        w.writerow([mtu, rate, loss, ldir, cc] + r)
sys.exit(0 if ok else 1)
EOF
  "$H" down
done; done; done; done

java -jar "$jar" perf --loss-chart "$csv" --out "$out"
echo "twohost-perf: wrote $csv, $out/twohost.png, $out/twohost.svg; raw outputs in $out/raw"
exit "$failed"
