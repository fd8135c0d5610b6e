#!/usr/bin/env bash
#
# Stops the ZooKeeper server(s) started from this installation with bin/kaas-zookeeper-start.sh, like
# Kafka's zookeeper-server-stop.sh (which stops every ZooKeeper of the machine; this one leaves others alone).
#
#   bin/kaas-zookeeper-stop.sh [signal]
#
# Sends SIGTERM (or the given signal, e.g. KILL) to every JVM running ZooKeeper's QuorumPeerMain with
# -Dkaas.home=<this installation>. Does not wait: it returns once the signal is sent. Exits 1 when none runs.

set -eu

signal="${1:-TERM}"
base="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"

# The bracket keeps the awk command line itself from matching its own pattern; the home is matched as a
# whole argument, so another installation's server (a longer path with this one as prefix) is not stopped.
pids="$(ps axww -o pid= -o args= | awk -v home="-Dkaas.home=$base" \
  '/java/ && /[o]rg\.apache\.zookeeper\.server\.quorum\.QuorumPeerMain/ {
     for (i = 2; i <= NF; i++) if ($i == home) { print $1; break }
   }')"

if [ -z "$pids" ]; then
  echo "No kaas ZooKeeper server to stop (started from $base)" >&2
  exit 1
fi

# shellcheck disable=SC2086
kill -s "$signal" $pids
