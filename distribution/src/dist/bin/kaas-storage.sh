#!/usr/bin/env bash
#
# Prepares a broker's data directory before its first start, like Kafka's kafka-storage.sh format,
# optionally with SCRAM credentials so that a SASL/SCRAM listener has a first user:
#
#   bin/kaas-storage.sh format --config config/server.properties \
#       --add-scram 'SCRAM-SHA-256=[name=admin,password=admin-secret]' [--add-scram ...] [--ignore-formatted]
#
# --add-scram takes Kafka's syntax: name= and password= (or saltedpassword= with salt=, base64), and
# optionally iterations= (4096..16384, default 4096) and salt=. Only the salt and the derived keys are
# stored, never the password. kaas makes the cluster id itself at the first start (no --cluster-id).
# A data directory that already holds anything is refused, or left alone with --ignore-formatted.
# Bad input prints one line to stderr and exits 1. Run it while the broker is stopped; relative paths
# in the config resolve against the current directory, as for bin/kaas-server-start.sh.
#
# Environment:
#   JAVA_HOME        the Java (17 or newer) to run; otherwise `java` on the PATH
#   KAAS_OPTS        anything else for the JVM (system properties…)
#   KAAS_LOG_CONFIG  a Logback configuration file; default config/logback.xml if it exists

set -eu

# The installation folder, whatever the current directory and however this script was reached.
base="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"

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

# Word-splitting of KAAS_OPTS is intended: it holds several flags.
# shellcheck disable=SC2086
exec "$java" -Xmx256m -Djava.awt.headless=true \
  ${log_opts[@]+"${log_opts[@]}"} \
  -Dkaas.home="$base" \
  ${KAAS_OPTS:-} \
  -p "$base/lib" --add-modules ALL-MODULE-PATH \
  -m io.kaas.broker/io.kaas.broker.tools.StorageTool "$@"
