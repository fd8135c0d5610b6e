#!/usr/bin/env bash
# The side-by-side benchmark, one command: builds kaas (and its distribution) and this module, then
# runs every workload against kaas and Apache Kafka, several rounds, and writes
# benchmarks/results/<date>.md and .json. Extra arguments go to the harness, e.g.
#   benchmarks/run.sh --rounds 5
#   benchmarks/run.sh --mode smoke --systems kaas,kafka
#   benchmarks/run.sh --workloads txn-produce,txn-e2e --rounds 1
# Takes about 25-30 minutes on a 2-core machine in the default (full) mode.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -ntp -q install -DskipTests
./mvnw -B -ntp -q -f benchmarks/pom.xml verify -DskipTests -Pbench -Dbench.args="$*"
