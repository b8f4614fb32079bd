#!/usr/bin/env bash
# Fuzzing campaign: runs every Jazzer target of fuzz/ in turn, in fuzzing mode (JAZZER_FUZZ=1, 60 s per run,
# the targets' maxDuration), round after round until MINUTES have passed, and appends one line per run to
# fuzz/target/campaign.tsv: UTC time, target, executions, coverage edges, exec/s, outcome. Each run continues
# from the corpus the previous runs left in fuzz/.cifuzz-corpus. Bounded: stops after MINUTES (default 30).
# Usage: fuzz/campaign.sh [MINUTES]
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-30}
end=$(( $(date +%s) + minutes * 60 ))
out=fuzz/target/campaign.tsv
mkdir -p fuzz/target
[[ -f $out ]] || printf 'utc\ttarget\texecutions\tedges\texec_per_s\toutcome\n' > "$out"
targets=()
for f in fuzz/src/test/java/io/jrnic/fuzz/*FuzzTest.java; do
  cls=$(basename "$f" .java)
  for m in $(grep -A1 '@FuzzTest' "$f" | grep -oP 'void \K\w+(?=\()'); do
    targets+=("$cls#$m")
  done
done
while (( $(date +%s) < end )); do
  for t in "${targets[@]}"; do
    (( $(date +%s) < end )) || break
    log=fuzz/target/campaign-${t/\#/-}.log
    outcome=ok
    JAZZER_FUZZ=1 ./mvnw -o -B test -pl fuzz -am -Dsurefire.failIfNoSpecifiedTests=false -Dtest="$t" >"$log" 2>&1 || outcome=FINDING
    stats=$(grep -E '^#[0-9]+\s+DONE' "$log" | tail -n 1 || true)
    execs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$stats")
    edges=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$stats")
    rate=$(sed -nE 's/.*exec\/s: ([0-9]+).*/\1/p' <<<"$stats")
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "${execs:-?}" "${edges:-?}" "${rate:-?}" "$outcome" | tee -a "$out"
  done
done
