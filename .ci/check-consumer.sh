#!/usr/bin/env bash
# Packaging check (issue 10): install every artifact into a throwaway local repository, then
# build and run the consumer project of README "Use jrnic in your build" against it (BOM import,
# jrnic-verbs + jrnic-rnic-soft). Third-party artifacts come read-only from ~/.m2 (Maven 3.9
# "tail" repository) or are downloaded into the throwaway one; nothing io.jrnic reaches ~/.m2.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(mktemp -d "${TMPDIR:-/tmp}/jrnic-consumer-m2.XXXXXX")"
trap 'rm -rf "$repo"' EXIT
m2=(-B -q -Dmaven.repo.local="$repo" -Dmaven.repo.local.tail="$HOME/.m2/repository")
t0=$(date +%s)
./mvnw "${m2[@]}" install -DskipTests
for m in mpa ddp rdmap verbs rnic-soft file-region; do
  jar=$(ls "$repo"/io/jrnic/jrnic-$m/*/jrnic-$m-*.jar | grep -v -e sources -e javadoc | head -n 1)
  (cd "$repo" && jar xf "$jar" META-INF/MANIFEST.MF && grep -q '^Automatic-Module-Name: io\.jrnic\.' META-INF/MANIFEST.MF) \
    || { echo "check-consumer: no Automatic-Module-Name in $jar" >&2; exit 1; }
  ls "$repo"/io/jrnic/jrnic-$m/*/jrnic-$m-*-sources.jar "$repo"/io/jrnic/jrnic-$m/*/jrnic-$m-*-javadoc.jar >/dev/null
done
./mvnw "${m2[@]}" -f .ci/consumer/pom.xml package dependency:build-classpath -Dmdep.outputFile=target/cp.txt
out=$(java -cp ".ci/consumer/target/classes:$(cat .ci/consumer/target/cp.txt)" example.Hello)
echo "check-consumer: $out"
[[ "$out" == "RDMA WRITE SUCCESS, placed at the server: hello, jrnic" ]]
echo "check-consumer: ok in $(( $(date +%s) - t0 )) s"
