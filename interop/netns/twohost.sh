#!/usr/bin/env bash
# Two hosts over a real link: two network namespaces joined by a veth pair, with the kernel's own TCP between them.
#
#   twohost.sh up [--mtu 1500|9000] [--rate-ab R] [--rate-ba R] [--loss-ab PCT] [--loss-ba PCT] [--offload on|off]
#                 [--cc NAME]        TCP congestion control of both hosts (default: what a new namespace inherits)
#                 [--rto-min T]      minimum TCP RTO on both hosts' route (ip route rto_min, e.g. 10ms; default the kernel's 200ms)
#                 [--quickack]       no delayed ACKs on both hosts' route (ip route quickack 1; default: the kernel's, 40 ms)
#   twohost.sh loss ab|ba PCT         random loss on one direction (0 removes it); PCT down to 0.01, per segment: the
#                                     direction's segmentation offload goes off (and stays off until down)
#   twohost.sh rate ab|ba R|none      tbf rate limit on one direction's sender (R as tc writes it: 1gbit, 10gbit)
#   twohost.sh link down|up           both ends of the veth administratively down or up
#   twohost.sh exec a|b CMD...        runs CMD inside host a or b
#   twohost.sh addr a|b               prints that host's address
#   twohost.sh cc a|b                 prints that host's TCP congestion control
#   twohost.sh status                 namespaces, addresses, routes, qdiscs, loss rules, segmentation offloads
#   twohost.sh down                   removes everything it made, processes still running in the hosts included
#                                     (idempotent: fine to call when nothing is up)
#
# Environment: JRNIC_NETNS (name prefix, default jrnic2h: namespaces jrnic2h-a and jrnic2h-b) and JRNIC_NETNS_NET
# (0..255, default 0: host a is 10.231.N.1/30, host b 10.231.N.2/30). These are the only addresses the harness
# assigns, and only inside its own namespaces; no interface outside them is touched (the veth pair is created with
# both ends already inside the namespaces). Direction ab is a -> b. Loss is dropped at the receiving end's ingress
# (nftables netdev hook, `numgen random mod 10000 < N`), so the sender's TCP meets it as a loss on the wire, not as a
# local drop, one segment at a time (the direction's TSO, GSO and GRO go off with a loss below 100 %); rate is a
# `tbf` qdisc on the sending end. `sch_netem` (delay) is not used: it is missing from some kernels. --cc sets
# net.ipv4.tcp_congestion_control in both namespaces (a namespace inherits the host's default; outside the host's
# namespace the kernel lets only those in net.ipv4.tcp_allowed_congestion_control be set, and the host's setting is
# never changed here). --rto-min sets the route between the hosts' minimum RTO (both
# directions, every TCP socket on the link alike: iperf3's as jrnic's; the tail loss probe with one segment in flight
# waits for it too). --quickack sets the route's quickack attribute on both hosts: every segment is ACKed at once,
# where the kernel may otherwise hold an ACK for its delayed-ACK timer (40 ms at least), and under loss a sender
# bound by its congestion window waits for it (README, "Per-segment loss"). Exit status: 0 done, 1 failed (the
# message says what), 2 bad usage.
set -euo pipefail

prefix="${JRNIC_NETNS:-jrnic2h}"
net="${JRNIC_NETNS_NET:-0}"
ns_a="$prefix-a"
ns_b="$prefix-b"
if_a="${prefix:0:10}a"
if_b="${prefix:0:10}b"

die() { echo "twohost: $*" >&2; exit 1; }
usage() { sed -n '3,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

[[ "$net" =~ ^[0-9]+$ ]] && (( net <= 255 )) || { echo "twohost: JRNIC_NETNS_NET must be 0..255" >&2; exit 2; }
addr_a="10.231.$net.1"
addr_b="10.231.$net.2"

ns_of() { case "$1" in a) echo "$ns_a" ;; b) echo "$ns_b" ;; *) usage ;; esac; }
exists() { ip netns list 2>/dev/null | awk '{print $1}' | grep -qx "$1"; }

# Loss PCT (0..100, at most two decimals) as a count out of 10000.
per10000() {
  awk -v p="$1" 'BEGIN { if (p !~ /^[0-9]+(\.[0-9]+)?$/ || p + 0 > 100) exit 1; n = int(p * 100 + 0.5);
    if (p + 0 > 0 && n == 0) exit 1; print n }' || { echo "twohost: loss must be 0..100 %, at least 0.01" >&2; exit 2; }
}

set_loss() { # direction pct
  local dir="$1" n rx_ns rx_if tx_ns tx_if
  n="$(per10000 "$2")"
  case "$dir" in
    ab) tx_ns="$ns_a"; tx_if="$if_a"; rx_ns="$ns_b"; rx_if="$if_b" ;;
    ba) tx_ns="$ns_b"; tx_if="$if_b"; rx_ns="$ns_a"; rx_if="$if_a" ;;
    *) usage ;;
  esac
  ip netns exec "$rx_ns" nft delete table netdev jrnic_loss 2>/dev/null || true
  if (( n > 0 )); then
    command -v nft >/dev/null || die "nft not found (Debian: apt-get install nftables)"
    if (( n < 10000 )); then
      # a wire loses frames, not bursts: with segmentation offload a GSO super-packet crosses the veth whole, and one
      # drop took ~20 segments at 1 %. Segments are cut before the veth, and not merged after it, on this direction.
      command -v ethtool >/dev/null || die "loss needs ethtool (Debian: apt-get install ethtool)"
      ip netns exec "$tx_ns" ethtool -K "$tx_if" tso off gso off >/dev/null
      ip netns exec "$rx_ns" ethtool -K "$rx_if" gro off >/dev/null
    fi
    local rule="numgen random mod 10000 < $n counter drop"
    (( n == 10000 )) && rule="counter drop" # 100 %: numgen's operand must stay below the modulus
    ip netns exec "$rx_ns" nft -f - <<EOF
table netdev jrnic_loss {
  chain ingress {
    type filter hook ingress device "$rx_if" priority 0; policy accept;
    $rule
  }
}
EOF
  fi
}

set_rate() { # direction rate|none
  local dir="$1" rate="$2" tx_ns tx_if burst
  case "$dir" in ab) tx_ns="$ns_a"; tx_if="$if_a" ;; ba) tx_ns="$ns_b"; tx_if="$if_b" ;; *) usage ;; esac
  ip netns exec "$tx_ns" tc qdisc del dev "$tx_if" root 2>/dev/null || true
  if [[ "$rate" != none ]]; then
    # burst must cover one timer tick at the rate and one GSO super-packet; 1 MiB per Gbit/s does both
    burst=$(( $(rate_gbit "$rate") * 1048576 ))
    ip netns exec "$tx_ns" tc qdisc add dev "$tx_if" root tbf rate "$rate" burst "$burst" latency 20ms \
      || die "tc tbf rate $rate failed"
  fi
}

rate_gbit() { # 1gbit -> 1, 10gbit -> 10, 500mbit -> 1
  case "$1" in
    *gbit) echo "${1%gbit}" ;;
    *mbit) echo 1 ;;
    *) echo "twohost: rate as 1gbit, 10gbit or NNNmbit" >&2; exit 2 ;;
  esac
}

# A process still inside a namespace keeps its network stack alive after `ip netns del` (its sockets, its ports, its
# CPU): down ends every process the hosts hold first (TERM, then KILL after at most 5 s), then removes them.
end_processes() {
  local ns=$1 pids i
  pids=$(ip netns pids "$ns" 2>/dev/null)
  [ -z "$pids" ] && return 0
  kill $pids 2>/dev/null
  for i in $(seq 1 50); do
    [ -z "$(ip netns pids "$ns" 2>/dev/null)" ] && return 0
    sleep 0.1
  done
  pids=$(ip netns pids "$ns" 2>/dev/null)
  [ -n "$pids" ] && kill -9 $pids 2>/dev/null
  return 0
}

down() {
  local ns
  for ns in "$ns_a" "$ns_b"; do
    if exists "$ns"; then
      end_processes "$ns"
      ip netns del "$ns"
    fi
  done
  return 0
}

up() {
  local mtu=1500 rate_ab=none rate_ba=none loss_ab=0 loss_ba=0 offload=on cc="" rto_min="" quickack=""
  while (( $# )); do
    case "$1" in
      --mtu) mtu="$2"; shift 2 ;;
      --rate-ab) rate_ab="$2"; shift 2 ;;
      --rate-ba) rate_ba="$2"; shift 2 ;;
      --rate) rate_ab="$2"; rate_ba="$2"; shift 2 ;;
      --loss-ab) loss_ab="$2"; shift 2 ;;
      --loss-ba) loss_ba="$2"; shift 2 ;;
      --offload) offload="$2"; shift 2 ;;
      --cc) cc="$2"; shift 2 ;;
      --rto-min) rto_min="$2"; shift 2 ;;
      --quickack) quickack=1; shift ;;
      *) usage ;;
    esac
  done
  [[ -z "$rto_min" || "$rto_min" =~ ^[0-9]+(ms|us|s)?$ ]] || { echo "twohost: --rto-min TIME (10ms, 5000us)" >&2; exit 2; }
  [[ "$mtu" =~ ^[0-9]+$ ]] && (( mtu >= 1280 && mtu <= 65535 )) || { echo "twohost: --mtu 1280..65535" >&2; exit 2; }
  per10000 "$loss_ab" >/dev/null; per10000 "$loss_ba" >/dev/null
  down
  ip netns add "$ns_a" || die "ip netns add not permitted (needs root or CAP_SYS_ADMIN)"
  ip netns add "$ns_b" || { down; die "ip netns add failed"; }
  if ! ip link add "$if_a" netns "$ns_a" mtu "$mtu" type veth peer name "$if_b" netns "$ns_b" mtu "$mtu"; then
    down; die "veth pair not created"
  fi
  local n ifc addr
  for n in a b; do
    if [[ $n == a ]]; then ifc="$if_a"; addr="$addr_a"; else ifc="$if_b"; addr="$addr_b"; fi
    ip -n "$(ns_of $n)" link set lo up
    ip -n "$(ns_of $n)" addr add "$addr/30" dev "$ifc"
    ip -n "$(ns_of $n)" link set "$ifc" up
    if [[ -n "$rto_min" || -n "$quickack" ]]; then
      # the connected route to the other host, every socket on the link alike
      local attrs=()
      [[ -n "$rto_min" ]] && attrs+=(rto_min "$rto_min")
      [[ -n "$quickack" ]] && attrs+=(quickack 1)
      ip -n "$(ns_of $n)" route change "10.231.$net.0/30" dev "$ifc" proto kernel scope link src "$addr" \
        "${attrs[@]}" || { down; die "route attributes '${attrs[*]}' refused"; }
    fi
    if [[ "$offload" == off ]]; then
      # segments on the capture as on a wire: no TSO/GSO/GRO super-packets (needs ethtool)
      command -v ethtool >/dev/null || { down; die "--offload off needs ethtool"; }
      ip netns exec "$(ns_of $n)" ethtool -K "$ifc" tso off gso off gro off >/dev/null
    fi
  done
  if [[ -n "$cc" ]]; then
    for n in a b; do
      ip netns exec "$(ns_of $n)" sysctl -qw "net.ipv4.tcp_congestion_control=$cc" 2>/dev/null || { down
        die "congestion control '$cc' refused in a namespace (allowed there: $(sysctl -n net.ipv4.tcp_allowed_congestion_control))"; }
    done
  fi
  set_rate ab "$rate_ab"; set_rate ba "$rate_ba"
  set_loss ab "$loss_ab"; set_loss ba "$loss_ba"
  # the veth carries traffic once both ends report carrier (operstate UP)
  local i
  for i in $(seq 1 50); do
    [[ "$(ip netns exec "$ns_a" cat "/sys/class/net/$if_a/operstate")" == up \
       && "$(ip netns exec "$ns_b" cat "/sys/class/net/$if_b/operstate")" == up ]] && break
    sleep 0.1
  done
  echo "twohost: up: $ns_a ($addr_a, $if_a) <-> $ns_b ($addr_b, $if_b), MTU $mtu, rate ab $rate_ab ba $rate_ba," \
       "loss ab $loss_ab % ba $loss_ba %, congestion control $(cc_of a), minimum RTO $(rto_min_of a)," \
       "delayed ACKs $(delack_of a), offload a $(offload_of a), b $(offload_of b)"
}

# the route's rto_min as ip prints it, or the kernel's default
rto_min_of() {
  local r
  r=$(ip -n "$(ns_of "$1")" route show "10.231.$net.0/30" | grep -o 'rto_min \(lock \)\{0,1\}[0-9a-z.]*' | awk '{print $NF}')
  echo "${r:-200ms, the kernel default}"
}

# "off (quickack)" when the route ACKs every segment at once, else "on"
delack_of() {
  ip -n "$(ns_of "$1")" route show "10.231.$net.0/30" | grep -q 'quickack 1' && echo "off (quickack)" || echo on
}

cc_of() { ip netns exec "$(ns_of "$1")" sysctl -n net.ipv4.tcp_congestion_control; }

# the host's veth end's TSO, GSO and GRO ("tso on gso on gro off"), or why they are unknown
offload_of() {
  local ifc
  ifc=$([[ $1 == a ]] && echo "$if_a" || echo "$if_b")
  command -v ethtool >/dev/null || { echo "unknown (no ethtool)"; return 0; }
  ip netns exec "$(ns_of "$1")" ethtool -k "$ifc" | awk -F': ' '
    $1 == "tcp-segmentation-offload" { t = $2 } $1 == "generic-segmentation-offload" { g = $2 }
    $1 == "generic-receive-offload" { r = $2 }
    END { sub(/ .*/, "", t); sub(/ .*/, "", g); sub(/ .*/, "", r); print "tso " t " gso " g " gro " r }'
}

status() {
  local n
  for n in a b; do
    if exists "$(ns_of $n)"; then
      echo "== $(ns_of $n)"
      ip -n "$(ns_of $n)" -br addr
      ip -n "$(ns_of $n)" link show | grep -o 'mtu [0-9]*' | head -2 | tail -1
      echo "congestion control $(cc_of $n), minimum RTO $(rto_min_of $n), delayed ACKs $(delack_of $n)," \
           "offload $(offload_of $n)"
      ip netns exec "$(ns_of $n)" tc qdisc show | grep -v noqueue || true
      ip netns exec "$(ns_of $n)" nft list table netdev jrnic_loss 2>/dev/null | grep -E 'drop' || true
    else
      echo "== $(ns_of $n): absent"
    fi
  done
}

cmd="${1:-}"
(( $# )) && shift
case "$cmd" in
  up) up "$@" ;;
  down) down ;;
  status) status ;;
  loss) (( $# == 2 )) || usage; exists "$ns_a" || die "not up"; set_loss "$1" "$2" ;;
  rate) (( $# == 2 )) || usage; exists "$ns_a" || die "not up"; set_rate "$1" "$2" ;;
  link)
    (( $# == 1 )) || usage; exists "$ns_a" || die "not up"
    case "$1" in down|up) ip -n "$ns_a" link set "$if_a" "$1"; ip -n "$ns_b" link set "$if_b" "$1" ;; *) usage ;; esac ;;
  exec) (( $# >= 2 )) || usage; ns="$(ns_of "$1")"; shift; exec ip netns exec "$ns" "$@" ;;
  addr) (( $# == 1 )) || usage; case "$1" in a) echo "$addr_a" ;; b) echo "$addr_b" ;; *) usage ;; esac ;;
  cc) (( $# == 1 )) || usage; exists "$(ns_of "$1")" || die "not up"; cc_of "$1" ;;
  *) usage ;;
esac
