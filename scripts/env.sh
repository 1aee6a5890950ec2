# scripts/env.sh: settings shared by the scripts (sourced, not run).
# The local cluster the README's commands use; override any of these from the environment.
export PGVERSION=15
export PGPKGVERSION="${PGPKGVERSION:-15.18-0+deb12u1}"
export PGBIN="/usr/lib/postgresql/$PGVERSION/bin"
export COLSTORE_CLUSTER="${COLSTORE_CLUSTER:-/var/tmp/colstore-cluster}"
export COLSTORE_DEPS="${COLSTORE_DEPS:-/var/tmp/colstore-deps}"
export PGHOST="${PGHOST:-/var/tmp/colstore-socket}"
export PGPORT="${PGPORT:-5432}"
export PGUSER=postgres
export PGDATABASE="${PGDATABASE:-postgres}"
export PATH="$PGBIN:$PATH"

# Run a command as the postgres OS user (PostgreSQL refuses to run as root).
as_postgres() { runuser -u postgres -- env PATH="$PATH" "$@"; }
