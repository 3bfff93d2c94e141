#!/bin/sh
# Makes the class-data-sharing archive that bin/meta-gateway starts with (target/meta-gateway.jsa beside the jar):
# runs the gateway jar once over stdio on an empty manifests folder, lets it answer server/discover, initialize and
# tools/list, and has the JVM write every class it loaded into the archive when it exits. A JVM that starts from the
# archive maps those classes instead of loading and verifying them again.
# Usage: build/class-archive.sh JAR ARCHIVE
set -eu
jar=$1
archive=$2
java=java
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
  java="$JAVA_HOME/bin/java"
fi
empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT
mkdir "$empty/manifests"
rm -f "$archive"
meta='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"class-archive","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}'
printf '%s\n' \
  '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{'"$meta"'}}' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{'"$meta"'}}' \
  '{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"class-archive","version":"1"}}}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","id":4,"method":"tools/list"}' \
  | "$java" -XX:ArchiveClassesAtExit="$archive" -Xlog:disable -Xlog:all=error:stderr \
      -Dfile.encoding=UTF-8 -Dstdout.encoding=UTF-8 -jar "$jar" --manifests "$empty/manifests" \
      > /dev/null 2> "$empty/stderr" || { cat "$empty/stderr" >&2; exit 1; }
if [ ! -s "$archive" ]; then
  cat "$empty/stderr" >&2
  echo "class-archive: no archive was written to $archive" >&2
  exit 1
fi
