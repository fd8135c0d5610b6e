#!/usr/bin/env bash
#
# Starts a kaas broker in the foreground, like Kafka's kafka-server-start.sh.
#
#   bin/kaas-server-start.sh [config-file] [--override key=value]...
#
# config-file defaults to config/server.properties of this installation. Relative paths in the
# config (log.dirs=./data) resolve against the current directory, as in Kafka: run it from the
# folder where the data should live.
#
# The JVM replaces this shell (exec), so SIGTERM / Ctrl-C reach the broker, which drains, fsyncs
# and exits 0. Stop it with bin/kaas-server-stop.sh or by signalling this process.
#
# Environment:
#   JAVA_HOME                  the Java (17 or newer) to run; otherwise `java` on the PATH
#   KAAS_HEAP_OPTS             heap sizing; default "-Xms256m -Xmx1g"
#   KAAS_JVM_PERFORMANCE_OPTS  GC and JIT flags; default below
#   KAAS_OPTS                  anything else for the JVM (system properties, agents, JFR…)
#   KAAS_LOG_CONFIG            a Logback configuration file; default config/logback.xml if it exists,
#                              else the built-in console logging (see config/logback-example.xml)
#   KAAS_CDS                   "off" disables the class-data sharing archive (see below)
#   KAAS_CDS_DIR               where the archive lives; default cds/ of this installation

set -eu

usage() {
  echo "USAGE: $0 [config-file] [--override property=value]..." >&2
}

# The installation folder, whatever the current directory and however this script was reached.
base="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"

case "${1:-}" in
  -h|--help)
    usage
    exit 0
    ;;
  ""|-*)
    # No config file given: the installation's own.
    set -- "$base/config/server.properties" "$@"
    ;;
esac

if [ ! -f "$1" ]; then
  echo "kaas: config file not found: $1" >&2
  usage
  exit 1
fi

if [ -n "${JAVA_HOME:-}" ]; then
  java="$JAVA_HOME/bin/java"
  if [ ! -x "$java" ]; then
    echo "kaas: JAVA_HOME is set to '$JAVA_HOME' but $java is not an executable" >&2
    exit 1
  fi
else
  java="$(command -v java || true)"
  if [ -z "$java" ]; then
    echo "kaas: no java on the PATH and JAVA_HOME is not set; kaas needs Java 17 or newer" >&2
    exit 1
  fi
fi

# Memory. The broker's page-cache-friendly I/O (segment files, zero-copy fetch) wants a modest heap;
# leave the rest of the machine's memory to the OS page cache, as with Kafka.
heap_opts="${KAAS_HEAP_OPTS:--Xms256m -Xmx1g}"

# GC for low pause: G1 with a 20 ms pause target, Kafka's own production settings
# (kafka-run-class.sh): start concurrent marking early (IHOP 35 %) so mixed collections keep up,
# and make System.gc() (e.g. from direct-buffer pressure) a concurrent cycle, not a full pause.
# Why not ZGC: on Java 17 ZGC is not generational (that arrives in 21), costs more CPU and memory
# headroom at the small heaps a broker uses, and buys little when the allocation rate is low, as
# it is here (records are handled as opaque buffers, mostly off-heap). On Java 21+ you may try
#   KAAS_JVM_PERFORMANCE_OPTS="-server -XX:+UseZGC -XX:+ZGenerational"
perf_opts="${KAAS_JVM_PERFORMANCE_OPTS:--server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -XX:+ParallelRefProcEnabled -Djava.awt.headless=true}"

# Logging: a Logback file if there is one, else the broker's built-in console set-up, which is what
# config/logback-example.xml spells out and starts faster than any XML file.
log_opts=()
if [ -n "${KAAS_LOG_CONFIG:-}" ]; then
  if [ ! -f "$KAAS_LOG_CONFIG" ]; then
    echo "kaas: KAAS_LOG_CONFIG names '$KAAS_LOG_CONFIG', which is not a file" >&2
    exit 1
  fi
  log_opts=("-Dlogback.configurationFile=$KAAS_LOG_CONFIG")
elif [ -f "$base/config/logback.xml" ]; then
  log_opts=("-Dlogback.configurationFile=$base/config/logback.xml")
fi

# Class-data sharing (AppCDS): the classes the broker loads at start-up (~2,400 from lib/, besides the
# JDK's own) are kept pre-parsed and pre-verified in an archive, which takes roughly a third off the
# time to the first answered request. The archive belongs to one Java build, one installation folder
# and one lib/; its name carries a checksum of the three, so a different Java, a moved or upgraded
# installation gets a fresh one. The JVM checks an archive before using it and, with -Xshare:auto,
# runs without one it cannot use: a missing, stale or unwritable archive never stops the broker.
#   Java 19+:  -XX:+AutoCreateSharedArchive: the JVM writes or refreshes the archive when it exits.
#   Java 17/18: the first start without an archive dumps one at exit (-XX:ArchiveClassesAtExit) into a
#              file named after its pid; a later start promotes a finished dump (its JVM has exited)
#              to the archive with an atomic rename, so concurrent first starts cannot clash.
# The distribution build already trains the archive for target/kaas-<version>/ (bin-training).
cds_opts=()
# With a CLASSPATH in the environment (directories on the class path) the JVM cannot write an archive,
# and a failed dump turns the broker's exit code into 1: no archive then.
if [ "${KAAS_CDS:-on}" != "off" ] && [ -z "${CLASSPATH:-}" ]; then
  cds_dir="${KAAS_CDS_DIR:-$base/cds}"
  java_home_real="$(cd "$(dirname "$(readlink -f "$java")")/.." && pwd -P)"
  java_version=""
  if [ -r "$java_home_real/release" ]; then
    while IFS='=' read -r key value; do
      if [ "$key" = "JAVA_RUNTIME_VERSION" ] || { [ "$key" = "JAVA_VERSION" ] && [ -z "$java_version" ]; }; then
        java_version="${value//\"/}"
      fi
    done < "$java_home_real/release"
  fi
  java_feature="${java_version%%[.+-]*}"
  if [[ "$java_feature" =~ ^[0-9]+$ ]] && mkdir -p "$cds_dir" 2>/dev/null && [ -w "$cds_dir" ]; then
    cds_key="$( { echo "$java_home_real $java_version"; echo "$base"; ls -l --time-style=+%s "$base/lib"; } | cksum)"
    archive="$cds_dir/kaas-java$java_feature-${cds_key%% *}.jsa"
    if [ "$java_feature" -ge 19 ]; then
      cds_opts=("-XX:SharedArchiveFile=$archive" -XX:+AutoCreateSharedArchive)
    else
      if [ ! -s "$archive" ]; then
        for dump in "$archive".*.dump; do
          pid="${dump#"$archive".}"
          pid="${pid%.dump}"
          if [ -s "$dump" ] && [[ "$pid" =~ ^[0-9]+$ ]] && ! kill -0 "$pid" 2>/dev/null; then
            mv -f "$dump" "$archive" 2>/dev/null && break
          fi
        done
      fi
      if [ -s "$archive" ]; then
        cds_opts=("-XX:SharedArchiveFile=$archive")
      else
        # exec keeps this shell's pid ($$) for the JVM: the dump is named after the JVM that writes it.
        cds_opts=("-XX:ArchiveClassesAtExit=$archive.$$.dump")
      fi
    fi
    # The JVM's CDS warnings (classes it skips while dumping) are noise in the broker's log.
    cds_opts+=(-Xshare:auto -Xlog:cds=off,cds+dynamic=off)
  fi
fi

# Word-splitting of the *_OPTS variables is intended: they hold several flags.
# shellcheck disable=SC2086
exec "$java" $heap_opts $perf_opts ${cds_opts[@]+"${cds_opts[@]}"} \
  ${log_opts[@]+"${log_opts[@]}"} \
  -Dkaas.home="$base" \
  ${KAAS_OPTS:-} \
  -p "$base/lib" --add-modules ALL-MODULE-PATH \
  -m io.kaas.broker/io.kaas.broker.Main "$@"
