#!/usr/bin/env bash
#
# Starts a ZooKeeper server in the foreground, for trying a kaas cluster (cluster.store=zookeeper) on
# one machine, as Kafka's tarball shipped one (zookeeper-server-start.sh).
#
#   bin/kaas-zookeeper-start.sh config/zookeeper.properties
#
# The config file is ZooKeeper's own (dataDir, clientPort, ...). Relative paths in it (dataDir=./data/zookeeper)
# resolve against the current directory, as the broker's log.dirs=./data does: start both from the same folder.
# For production run an ensemble of three or five ZooKeeper servers of its own, not this one.
#
# The ZooKeeper server and what it needs are in lib/zookeeper/, on a class path of their own: nothing of
# it is on the broker's module path (lib/). The JVM replaces this shell (exec), so SIGTERM / Ctrl-C reach
# ZooKeeper. Stop it with bin/kaas-zookeeper-stop.sh or by signalling this process.
#
# Environment:
#   JAVA_HOME                       the Java (17 or newer) to run; otherwise `java` on the PATH
#   KAAS_ZOOKEEPER_HEAP_OPTS        heap sizing; default "-Xms64m -Xmx512m"
#   KAAS_ZOOKEEPER_OPTS             anything else for the JVM (e.g. -Djava.security.auth.login.config=...)
#   KAAS_ZOOKEEPER_LOG_CONFIG       a Logback configuration file; default config/zookeeper-logback.xml

set -eu

usage() {
  echo "USAGE: $0 zookeeper.properties" >&2
}

# The installation folder, whatever the current directory and however this script was reached.
base="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"

case "${1:-}" in
  -h|--help)
    usage
    exit 0
    ;;
  "")
    usage
    exit 1
    ;;
esac

if [ ! -f "$1" ]; then
  echo "kaas-zookeeper: config file not found: $1" >&2
  usage
  exit 1
fi

if [ -n "${JAVA_HOME:-}" ]; then
  java="$JAVA_HOME/bin/java"
  if [ ! -x "$java" ]; then
    echo "kaas-zookeeper: JAVA_HOME is set to '$JAVA_HOME' but $java is not an executable" >&2
    exit 1
  fi
else
  java="$(command -v java || true)"
  if [ -z "$java" ]; then
    echo "kaas-zookeeper: no java on the PATH and JAVA_HOME is not set; ZooKeeper needs Java 17 or newer here" >&2
    exit 1
  fi
fi

if [ ! -d "$base/lib/zookeeper" ]; then
  echo "kaas-zookeeper: $base/lib/zookeeper is missing: this installation has no ZooKeeper server" >&2
  exit 1
fi

log_config="${KAAS_ZOOKEEPER_LOG_CONFIG:-$base/config/zookeeper-logback.xml}"
if [ ! -f "$log_config" ]; then
  echo "kaas-zookeeper: the Logback configuration '$log_config' is not a file" >&2
  exit 1
fi

heap_opts="${KAAS_ZOOKEEPER_HEAP_OPTS:--Xms64m -Xmx512m}"

# -Dkaas.home names the installation: bin/kaas-zookeeper-stop.sh stops only the servers started from it.
# Word-splitting of the *_OPTS variables is intended: they hold several flags.
# shellcheck disable=SC2086
exec "$java" $heap_opts -XX:+UseG1GC -Djava.awt.headless=true \
  "-Dlogback.configurationFile=$log_config" \
  -Dkaas.home="$base" \
  ${KAAS_ZOOKEEPER_OPTS:-} \
  -cp "$base/lib/zookeeper/*" \
  org.apache.zookeeper.server.quorum.QuorumPeerMain "$1"
