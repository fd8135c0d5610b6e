#!/usr/bin/env bash
#
# Trains the class-data sharing archive of a laid-out installation (target/kaas-<version>/), so that
# its first real start (the benchmark's, a developer's) is already a fast one: starts the broker
# through bin/kaas-server-start.sh on a free port (its admin endpoint too, so a broker running on the
# default 9644 cannot fail the training) with a throw-away data dir, waits until it answers a
# Metadata request (so the request path's classes are loaded too), and stops it with SIGTERM; the
# JVM writes the archive as it exits (see kaas-server-start.sh). Not shipped.
#
# Best effort: the archive is an optimisation, so any failure here is reported and the build goes on.
#
#   train-cds.sh <installation-dir> <work-dir>

set -u
install="$1"
work="$2"
rm -rf "$work"
mkdir -p "$work"
log="$work/broker.log"

"$install/bin/kaas-server-start.sh" \
  --override listeners=PLAINTEXT://127.0.0.1:0 \
  --override advertised.listeners=PLAINTEXT://127.0.0.1:0 \
  --override "log.dirs=$work/data" \
  --override admin.listener=http://127.0.0.1:0 \
  --override "plugins.dir=$install/plugins" >"$log" 2>&1 </dev/null &
pid=$!

port=""
for _ in $(seq 1 300); do
  port="$(sed -n 's/.*listening on PLAINTEXT:\/\/[^ ]*:\([0-9][0-9]*\) .*/\1/p' "$log" | head -n 1)"
  [ -n "$port" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done

if [ -n "$port" ]; then
  # ApiVersions-free raw Metadata v12 (no topics), as the benchmark's start-up probe sends it.
  if exec 3<>"/dev/tcp/127.0.0.1/$port"; then
    printf '\x00\x00\x00\x1d\x00\x03\x00\x0c\x00\x00\x00\x01\x00\x0ekaas-cds-train\x00\x01\x00\x00\x00' >&3
    timeout 10 head -c 4 <&3 >/dev/null
    exec 3<&- 3>&-
  fi
else
  echo "train-cds: the broker did not start; no archive trained (see $log)" >&2
fi

kill -TERM "$pid" 2>/dev/null
wait "$pid"
echo "train-cds: trained $(ls "$install"/cds 2>/dev/null | tr '\n' ' ')"
exit 0
