#!/usr/bin/env bash
# scripts/setup.sh: take a Debian 12 machine to a running local cluster with colstore installed.
#
# Idempotent.  Installs pinned PostgreSQL 15.18 packages (binaries, headers and the regression
# suite's source must be the same version) and the build dependencies.  With PGVERSION=15 (the
# default) it fetches PostgreSQL's source package (for its regression suite); with PGVERSION=17
# or 18 it builds that PostgreSQL from the pinned tarball instead (scripts/build_pg.sh, cached).
# Then it builds and installs the extension for that server, and (re)starts that version's
# local cluster, owned by the postgres user, with colstore preloaded.
# COLSTORE_CFLAGS is passed to the build (CI uses -Werror).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

log() { echo "== $*"; }

install_packages() {
	local pins="postgresql-15=$PGPKGVERSION postgresql-client-15=$PGPKGVERSION \
postgresql-server-dev-15=$PGPKGVERSION libpq5=$PGPKGVERSION libpq-dev=$PGPKGVERSION"
	local have
	have=$(dpkg-query -W -f='${Version}' postgresql-server-dev-15 2>/dev/null || true)
	if [ "$have" = "$PGPKGVERSION" ] && command -v zstd >/dev/null && [ -f /usr/include/lz4.h ] \
		&& [ -f /usr/include/zstd.h ] && perl -MIPC::Run -e1 2>/dev/null && command -v dpkg-source >/dev/null \
		&& command -v clang-14 >/dev/null && dpkg-query -W libclang-rt-14-dev >/dev/null 2>&1 \
		&& command -v sqlsmith >/dev/null; then
		log "packages present"
		return
	fi
	log "installing packages"
	if ! grep -q "deb-src" /etc/apt/sources.list.d/debian.sources 2>/dev/null; then
		sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	# shellcheck disable=SC2086
	apt-get install -y -q --allow-downgrades $pins libzstd-dev liblz4-dev zstd \
		libipc-run-perl make gcc dpkg-dev clang-14 libclang-rt-14-dev sqlsmith
	apt-mark hold postgresql-15 postgresql-client-15 postgresql-server-dev-15 libpq5 libpq-dev >/dev/null
}

fetch_source() {
	local dir="$COLSTORE_DEPS/postgresql-15-${PGPKGVERSION%%-*}"
	if [ -f "$dir/src/test/regress/parallel_schedule" ]; then
		log "PostgreSQL source present ($dir)"
		return
	fi
	log "fetching PostgreSQL source package"
	if ! grep -q "deb-src" /etc/apt/sources.list.d/debian.sources 2>/dev/null; then
		sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources
		apt-get update -q
	fi
	mkdir -p "$COLSTORE_DEPS"
	(cd "$COLSTORE_DEPS" && apt-get source -q "postgresql-15=$PGPKGVERSION" >/dev/null 2>&1 \
		|| apt-get source "postgresql-15=$PGPKGVERSION")
	chmod -R a+rX "$COLSTORE_DEPS"
}

build_postgres() {
	[ "$PGVERSION" = 15 ] && return
	log "PostgreSQL $PGVERSION ($COLSTORE_PG_FLAVOUR build)"
	bash scripts/build_pg.sh "$PGVERSION" "$COLSTORE_PG_FLAVOUR" >/dev/null
}

build_extension() {
	log "building colstore for $("$PG_CONFIG" --version)"
	bash scripts/build_ext.sh
}

start_cluster() {
	mkdir -p "$PGHOST"
	chown postgres "$PGHOST"
	if [ -f /etc/postgresql/15/main/postgresql.conf ] && command -v pg_ctlcluster >/dev/null; then
		pg_ctlcluster 15 main stop >/dev/null 2>&1 || true
	fi
	if [ ! -f "$COLSTORE_CLUSTER/PG_VERSION" ]; then
		log "creating cluster in $COLSTORE_CLUSTER"
		mkdir -p "$COLSTORE_CLUSTER"
		chown postgres "$COLSTORE_CLUSTER"
		as_postgres initdb -D "$COLSTORE_CLUSTER" --locale=C.UTF-8 -E UTF8 -A trust >/dev/null
		cat >>"$COLSTORE_CLUSTER/postgresql.conf" <<CONF
# added by colstore scripts/setup.sh
listen_addresses = 'localhost'
unix_socket_directories = '$PGHOST'
port = $PGPORT
shared_buffers = ${COLSTORE_SHARED_BUFFERS:-1GB}
shared_preload_libraries = 'colstore'
jit = off
max_prepared_transactions = 10
max_wal_size = 4GB
logging_collector = off
CONF
	fi
	# logical decoding tests (test_decoding slots, publications) need it
	if ! grep -q "^wal_level = logical" "$COLSTORE_CLUSTER/postgresql.conf"; then
		echo "wal_level = logical" >>"$COLSTORE_CLUSTER/postgresql.conf"
	fi
	# restart so a freshly installed colstore.so is the one loaded
	as_postgres pg_ctl -D "$COLSTORE_CLUSTER" -l "$COLSTORE_CLUSTER/server.log" -w stop >/dev/null 2>&1 || true
	log "starting cluster (port $PGPORT, socket $PGHOST)"
	as_postgres pg_ctl -D "$COLSTORE_CLUSTER" -l "$COLSTORE_CLUSTER/server.log" -w start >/dev/null
}

install_packages
if [ "$PGVERSION" = 15 ]; then
	fetch_source
fi
build_postgres
build_extension
start_cluster
log "ready: PGHOST=$PGHOST PGPORT=$PGPORT PGUSER=$PGUSER"
