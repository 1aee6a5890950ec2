# scripts/env.sh: settings shared by the scripts (sourced, not run).
#
# PGVERSION picks the PostgreSQL the scripts use: 15 (the default) is Debian 12's packages; 17 and
# 18 are built from the pinned tarballs in ../shared/deps/ by scripts/build_pg.sh into a cached
# prefix under /var/tmp/colstore-pg (COLSTORE_PG_FLAVOUR: "cassert", the default, for tests;
# "release" for benchmarks).  Each version has its own cluster, socket and port.  Override any
# of these from the environment.
export PGVERSION="${PGVERSION:-15}"
# Debian 12's PostgreSQL 15 packages, pinned (installed for every PGVERSION: the build tools)
export PGPKGVERSION="${PGPKGVERSION:-15.18-0+deb12u1}"
_colstore_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "$PGVERSION" in
15)
	export PGBIN="/usr/lib/postgresql/15/bin"
	_colstore_suffix=""
	_colstore_port=5432
	;;
17 | 18)
	export COLSTORE_PG_FLAVOUR="${COLSTORE_PG_FLAVOUR:-cassert}"
	PGPREFIX="$(PREFIX_ONLY=1 bash "$_colstore_root/scripts/build_pg.sh" "$PGVERSION" "$COLSTORE_PG_FLAVOUR")"
	export PGPREFIX
	export PGBIN="$PGPREFIX/bin"
	_colstore_suffix="-$PGVERSION"
	_colstore_port=$((5400 + PGVERSION))
	;;
*)
	echo "PGVERSION must be 15, 17 or 18 (got \"$PGVERSION\")" >&2
	return 2 2>/dev/null || exit 2
	;;
esac
export COLSTORE_CLUSTER="${COLSTORE_CLUSTER:-/var/tmp/colstore-cluster$_colstore_suffix}"
export COLSTORE_DEPS="${COLSTORE_DEPS:-/var/tmp/colstore-deps}"
export PGHOST="${PGHOST:-/var/tmp/colstore-socket$_colstore_suffix}"
export PGPORT="${PGPORT:-$_colstore_port}"
export PGUSER=postgres
export PGDATABASE="${PGDATABASE:-postgres}"
export PATH="$PGBIN:$PATH"
export PG_CONFIG="$PGBIN/pg_config"

# PostgreSQL's source tree for its own test suites: Debian's source package for 15, the build
# tree for 17 and 18.
if [ "$PGVERSION" = 15 ]; then
	export PGSOURCE="$COLSTORE_DEPS/postgresql-15-${PGPKGVERSION%%-*}"
else
	export PGSOURCE="$PGPREFIX/src"
fi

# Run a command as the postgres OS user (PostgreSQL refuses to run as root).
as_postgres() { runuser -u postgres -- env PATH="$PATH" "$@"; }
