#!/usr/bin/env bash
#
# Stops the kaas broker(s) running on this machine, like Kafka's kafka-server-stop.sh.
#
#   bin/kaas-server-stop.sh [signal]
#
# Finds every JVM whose command line runs the kaas main class (io.kaas.broker/io.kaas.broker.Main,
# as bin/kaas-server-start.sh launches it) and sends it SIGTERM (or the given signal, e.g. KILL).
# On SIGTERM the broker drains in-flight requests, fsyncs and exits 0. This script does not wait:
# it returns once the signal is sent. Exits 1 when no kaas broker is running.

set -eu

signal="${1:-TERM}"

# The bracket keeps the awk command line itself from matching its own pattern.
pids="$(ps axww -o pid= -o args= | awk '/java/ && /[i]o\.kaas\.broker(\/io\.kaas\.broker)?\.Main/ { print $1 }')"

if [ -z "$pids" ]; then
  echo "No kaas server to stop" >&2
  exit 1
fi

# shellcheck disable=SC2086
kill -s "$signal" $pids
