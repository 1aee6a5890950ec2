#!/usr/bin/env bash
# scripts/build_pg.sh MAJOR [release|cassert]: build PostgreSQL MAJOR (17 or 18) from the pinned
# source tarball in ../shared/deps/ into a cached prefix, and print that prefix on stdout.
#
# The prefix is /var/tmp/colstore-pg/<major>-<first 12 hex of the tarball's sha256>-<flavour>-
# <first 8 hex of the configure flags' sha256>, so a changed tarball or different configure flags
# never reuse an old build.  PREFIX_ONLY=1 prints the prefix without building.  The build tree is
# kept beside it (…/src) because PostgreSQL's own regression and isolation suites run from it.
# "cassert" (the default, what the test suite uses) adds --enable-cassert --enable-debug;
# "release" is what benchmarks use.  Idempotent: a finished prefix is reused as it is.
set -euo pipefail
cd "$(dirname "$0")/.."

major="${1:?usage: build_pg.sh MAJOR [release|cassert]}"
flavour="${2:-cassert}"
deps="$(cd .. && pwd)/shared/deps"
case "$major" in
17) tarball="$deps/postgresql-17_17.11.orig.tar.bz2" ;;
18) tarball="$deps/postgresql-18_18.6.orig.tar.bz2" ;;
*) echo "build_pg.sh: no pinned source for PostgreSQL $major" >&2; exit 2 ;;
esac
# the features Debian's own PostgreSQL 15 has that colstore's tests and PostgreSQL's suites use
flags="--with-lz4 --with-zstd --with-icu --with-libxml --without-readline --enable-tap-tests"
case "$flavour" in
cassert) flags="$flags --enable-cassert --enable-debug" ;;
release) ;;
*) echo "build_pg.sh: flavour must be release or cassert" >&2; exit 2 ;;
esac

sum=$(sha256sum "$tarball" | cut -c1-12)
flagsum=$(echo "$flags" | sha256sum | cut -c1-8)
root="${COLSTORE_PG_CACHE:-/var/tmp/colstore-pg}"
prefix="$root/$major-$sum-$flavour-$flagsum"
if [ "${PREFIX_ONLY:-}" = 1 ]; then
	echo "$prefix"
	exit 0
fi
if [ -x "$prefix/bin/postgres" ] && [ -f "$prefix/.complete" ]; then
	echo "$prefix"
	exit 0
fi

log() { echo "== $*" >&2; }
. "$(dirname "$0")/packages.sh"
install_packages bison flex zlib1g-dev liblz4-dev libzstd-dev libicu-dev libxml2-dev pkg-config \
	libipc-run-perl make gcc

log "building PostgreSQL $major ($flavour) into $prefix"
rm -rf "$prefix"
mkdir -p "$prefix"
tar -xjf "$tarball" -C "$prefix"
mv "$prefix"/postgresql-* "$prefix/src"
chown -R postgres "$prefix"
# built as the postgres user: the source tree's own test suites refuse to run as root
# shellcheck disable=SC2086
runuser -u postgres -- bash -c "cd '$prefix/src' && ./configure --prefix='$prefix' $flags >configure.log 2>&1 \
	&& make -s -j\$(nproc) world-bin >make.log 2>&1 && make -s install-world-bin >>make.log 2>&1 \
	&& make -s -C src/test/isolation install >>make.log 2>&1 || { tail -40 make.log configure.log; exit 1; }" >&2
touch "$prefix/.complete"
echo "$prefix"
