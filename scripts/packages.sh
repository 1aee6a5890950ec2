# scripts/packages.sh: install_packages PACKAGE... installs those of Debian's packages that are
# not installed yet (one apt-get update and install for all of them; nothing when all are there).
# Sourced by the build scripts; logs to stderr, so their stdout stays theirs.
install_packages() {
	local need=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || need+=("$p")
	done
	[ "${#need[@]}" -eq 0 ] && return 0
	echo "== installing ${need[*]}" >&2
	DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >&2
}
