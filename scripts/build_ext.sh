#!/usr/bin/env bash
# scripts/build_ext.sh: build and install colstore for the PostgreSQL that scripts/env.sh picks
# (PGVERSION).  One source tree builds for one server at a time: objects built for another
# server are cleaned first (the stamp .colstore-built-for names the pg_config they were built
# with).  COLSTORE_CFLAGS is passed to the build (CI uses -Werror).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

stamp=".colstore-built-for"
if [ "$(cat "$stamp" 2>/dev/null)" != "$PG_CONFIG" ]; then
	make -s clean >/dev/null 2>&1 || true
	echo "$PG_CONFIG" >"$stamp"
fi
make -s COLSTORE_CFLAGS="${COLSTORE_CFLAGS:-}" >/dev/null
make -s install >/dev/null
