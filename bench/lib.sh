# bench/lib.sh: the throwaway server every bench script runs in.  Source it after scripts/env.sh.
#
# bench_server_start DATA SOCKET PORT [CONFIG LINE...]
#   Builds and installs colstore, creates a fresh cluster in DATA (initdb as the postgres user,
#   UTF8, C.UTF-8), listening only on a unix socket in SOCKET at PORT, with jit off, colstore
#   preloaded and the given extra postgresql.conf lines, starts it, and stops it when the script
#   exits.  Exports PGHOST, PGPORT and PGUSER for psql and pgbench.

bench_server_start() {
	local data="$1" sock="$2" port="$3"
	shift 3
	BENCH_DATA="$data"
	export PGHOST="$sock" PGPORT="$port" PGUSER=postgres
	trap bench_server_stop EXIT
	make -s >/dev/null && make -s install >/dev/null
	bench_server_stop
	rm -rf "$data"
	mkdir -p "$data" "$sock"
	chown postgres "$data" "$sock"
	as_postgres initdb -D "$data" --locale=C.UTF-8 -E UTF8 -A trust >/dev/null
	{
		echo "port = $port"
		echo "listen_addresses = ''"
		echo "unix_socket_directories = '$sock'"
		echo "jit = off"
		echo "shared_preload_libraries = 'colstore'"
		printf '%s\n' "$@"
	} >>"$data/postgresql.conf"
	as_postgres pg_ctl -D "$data" -l "$data/server.log" -w start >/dev/null
}

bench_server_stop() {
	as_postgres pg_ctl -D "$BENCH_DATA" -m fast -w stop >/dev/null 2>&1 || true
}
