#!/usr/bin/env bash
# Single-broker start-up and idle footprint of built distributions, alternating between them (the machine is
# shared: alternate, take medians, note the load). For each round and each distribution, in order:
#   start  ms from launch to the log line "started: listening", and the broker's own "in N ms"
#   cpu    the JVM's user+sys CPU ms when that line appears (less sensitive to other load than wall time)
#   rss    VmRSS (MiB) 8 s after launch
# Every launch: the files store, an empty data dir, the distribution's own config and bin/kaas-server-start.sh
# (its class-data sharing archive included; a copied distribution makes its archive on its first launch, so
# launch each once before measuring).
#
#   2026-12-02-startup.sh <rounds> <port> <work-dir> <name>=<distribution-dir>...
#
# The Kafka listener is 127.0.0.1:<port>, the admin endpoint 127.0.0.1:<port+1> (a distribution without
# admin.listener logs the key as unknown and ignores it).
set -u
rounds=$1; port=$2; work=$3; shift 3
mkdir -p "$work"
launch() { # $1 dist, $2 log
  rm -rf "$work/data"
  "$1/bin/kaas-server-start.sh" "$1/config/server.properties" --override "listeners=PLAINTEXT://127.0.0.1:$port" \
    --override "admin.listener=http://127.0.0.1:$((port + 1))" --override "log.dirs=$work/data" >"$2" 2>&1 &
  pid=$!
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null; }
await_started() { # $1 log
  for _ in $(seq 1 3000); do grep -q "started: listening" "$1" 2>/dev/null && return 0; sleep 0.005; done; return 1
}
start_probe() { # $1 dist
  local log="$work/run.log" t0 t1 cpu own
  t0=$(date +%s%N); launch "$1" "$log"; await_started "$log"; t1=$(date +%s%N)
  cpu=$(awk '{print ($14+$15)*10}' "/proc/$pid/stat")
  own=$(grep -o "in [0-9]* ms" "$log" | head -1 | awk '{print $2}')
  stop
  echo "$(( (t1 - t0) / 1000000 )) $own $cpu"
}
rss_probe() { # $1 dist
  launch "$1" "$work/run.log"; sleep 8
  awk '/VmRSS/ {printf "%.1f\n", $2 / 1024}' "/proc/$pid/status"
  stop
}
measure() {
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  for _ in $(seq 1 "$rounds"); do
    for nd in "$@"; do echo "start ${nd%%=*} $(start_probe "${nd#*=}")"; done
  done
  echo "load between: $(cut -d' ' -f1-3 /proc/loadavg)"
  for _ in $(seq 1 "$rounds"); do
    for nd in "$@"; do echo "rss ${nd%%=*} $(rss_probe "${nd#*=}")"; done
  done
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
}
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
measure "$@" | tee "$work/results.txt"
for nd in "$@"; do
  n=${nd%%=*}
  echo "median $n: wall $(awk -v n="$n" '$1 == "start" && $2 == n {print $3}' "$work/results.txt" | median) ms," \
    "own $(awk -v n="$n" '$1 == "start" && $2 == n {print $4}' "$work/results.txt" | median) ms," \
    "cpu $(awk -v n="$n" '$1 == "start" && $2 == n {print $5}' "$work/results.txt" | median) ms," \
    "rss $(awk -v n="$n" '$1 == "rss" && $2 == n {print $3}' "$work/results.txt" | median) MiB"
done
