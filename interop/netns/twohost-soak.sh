#!/usr/bin/env bash
# jrnic soak across two network namespaces (twohost.sh): the server in b, the client in a, through the link as set
# up here, then both verdicts. Root only.
#
#   twohost-soak.sh [--mtu 1500] [--loss PCT] [--rate R|none] [--rto-min T] [--out DIR] [-- SOAK CLIENT OPTIONS...]
#
# --loss applies to both directions (default 1); --rto-min sets the route's minimum RTO (twohost.sh up --rto-min); client options default to --bytes 100G --qps 4 --interval 30.
# Writes DIR/soak-server.txt and DIR/soak-client.txt (default DIR: target/twohost-soak). Exit 0: the client saw 0
# mismatches and 0 failed work requests and the server's run ended cleanly; 1 otherwise; 2 bad usage.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
H="$here/twohost.sh"
mtu=1500; loss=1; rate=none; rto_min=""; out="target/twohost-soak"
while (( $# )); do
  case "$1" in
    --mtu) mtu="$2"; shift 2 ;;
    --loss) loss="$2"; shift 2 ;;
    --rate) rate="$2"; shift 2 ;;
    --rto-min) rto_min="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --) shift; break ;;
    *) sed -n '5,9p' "$0" >&2; exit 2 ;;
  esac
done
client_opts=("$@")
(( ${#client_opts[@]} )) || client_opts=(--bytes 100G --qps 4 --interval 30)

"$root/jrnic" --version >/dev/null # builds cli/target/jrnic.jar when sources changed
jar="$root/cli/target/jrnic.jar"
mkdir -p "$out"
spid=""
cleanup() { [[ -n "$spid" ]] && kill "$spid" 2>/dev/null; "$H" down; }
trap cleanup EXIT
trap 'exit 130' INT TERM

rate_args=()
[[ $rate != none ]] && rate_args=(--rate "$rate")
[[ -n $rto_min ]] && rate_args+=(--rto-min "$rto_min")
"$H" up --mtu "$mtu" "${rate_args[@]}" --loss-ab "$loss" --loss-ba "$loss"
"$H" exec b java -jar "$jar" soak --server --runs 1 --bind "$("$H" addr b)" >"$out/soak-server.txt" 2>&1 &
spid=$!
for _ in $(seq 1 300); do grep -qs "listening on" "$out/soak-server.txt" && break; sleep 0.1; done
client=0
"$H" exec a java -jar "$jar" soak --connect "$("$H" addr b)" "${client_opts[@]}" 2>&1 | tee "$out/soak-client.txt" \
  || client=1
server=0
wait "$spid" || server=1
spid=""
cat "$out/soak-server.txt"
echo "twohost-soak: client exit $client, server exit $server (MTU $mtu, loss $loss % both ways, rate $rate${rto_min:+, minimum RTO $rto_min})"
(( client == 0 && server == 0 ))
