#!/usr/bin/env bash
# scripts/build_citus.sh PG_CONFIG: build Citus 13.2.2 from the pinned source tarball in
# ../shared/deps/ against the PostgreSQL that PG_CONFIG names, and install it there.
#
# The build tree is cached at /var/tmp/colstore-citus/<first 12 hex of the tarball's sha256>-
# <first 12 hex of the sha256 of PG_CONFIG's path and version>, so a changed tarball or another
# server never reuses an old build; installing from a finished tree is cheap and is redone
# whenever the server's library directory lacks citus.so.  Citus supports PostgreSQL 15 to 17:
# any other server is refused.  Only used by the scale-out test (test/t/020_citus.pl) and its
# bench; colstore itself never links with Citus.
set -euo pipefail
cd "$(dirname "$0")/.."

pg_config="${1:?usage: build_citus.sh PG_CONFIG}"
deps="$(cd .. && pwd)/shared/deps"
tarball="$deps/citus-13.2.2.tar.gz"
major=$("$pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
case "$major" in
15 | 16 | 17) ;;
*) echo "build_citus.sh: Citus 13.2.2 does not support PostgreSQL $major" >&2; exit 2 ;;
esac

sum=$(sha256sum "$tarball" | cut -c1-12)
pgsum=$(printf '%s %s' "$pg_config" "$("$pg_config" --version)" | sha256sum | cut -c1-12)
tree="${COLSTORE_CITUS_CACHE:-/var/tmp/colstore-citus}/$sum-$pgsum"
log() { echo "== $*" >&2; }

if [ ! -f "$tree/.complete" ]; then
	. "$(dirname "$0")/packages.sh"
	install_packages libkrb5-dev liblz4-dev libzstd-dev libselinux1-dev libxslt1-dev libpam0g-dev \
		libssl-dev make gcc autoconf
	log "building Citus 13.2.2 for PostgreSQL $major into $tree"
	rm -rf "$tree"
	mkdir -p "$tree"
	tar -xzf "$tarball" -C "$tree" --strip-components=1
	(cd "$tree" && ./configure PG_CONFIG="$pg_config" --without-libcurl >configure.log 2>&1 \
		&& make -s -j"$(nproc)" >make.log 2>&1) || { tail -40 "$tree/configure.log" "$tree/make.log" >&2; exit 1; }
	touch "$tree/.complete"
fi
if [ ! -f "$("$pg_config" --pkglibdir)/citus.so" ] || [ "$tree/.complete" -nt "$("$pg_config" --pkglibdir)/citus.so" ]; then
	log "installing Citus into $("$pg_config" --pkglibdir)"
	make -s -C "$tree" install >/dev/null
fi
echo "$tree"
