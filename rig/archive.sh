# SPDX-License-Identifier: GPL-2.0
# Read the Debian archive directly, for what this machine's apt cannot
# give: a foreign architecture's index that apt refuses (bookworm-security
# arm64) or a suite that is not in its sources (trixie-backports).  Nothing
# is added to apt's sources.  The chain of trust is apt's own: InRelease
# must carry a good signature from debian-archive-keyring, Packages.xz must
# have the SHA256 that InRelease lists, a .deb the SHA256 that Packages
# lists.  Source after lib.sh, do not run.
#
#   archive_newest SUITE ARCH REGEX   newest "PACKAGE VERSION" whose name matches
#   archive_field SUITE ARCH PKG VER FIELD
#   archive_fetch SUITE ARCH PKG [VER] print the path of the .deb in $CACHE/debs
#
# KRELOC_DEBIAN_MIRROR and KRELOC_DEBIAN_SECURITY override the mirrors.
# Indexes are kept in $CACHE/archive for a day.

DEBIAN_MIRROR="${KRELOC_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
DEBIAN_SECURITY="${KRELOC_DEBIAN_SECURITY:-http://deb.debian.org/debian-security}"
ARCHIVE_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

archive_url() {
	case "$1" in
	*-security) echo "$DEBIAN_SECURITY" ;;
	*) echo "$DEBIAN_MIRROR" ;;
	esac
}

# archive_get URL OUT [SHA256]: download through a temporary name.
archive_get() {
	local url="$1" out="$2" sum="${3:-}" tmp
	tmp=$(mktemp "$out.XXXXXX")
	# As root into a root-owned cache apt warns that it cannot drop to _apt.
	if ! /usr/lib/apt/apt-helper -o APT::Sandbox::User=root download-file \
		"$url" "$tmp" ${sum:+"SHA256:$sum"} > "$tmp.log" 2>&1; then
		cat "$tmp.log" >&2
		rm -f "$tmp" "$tmp.log"
		die "cannot download $url"
	fi
	rm -f "$tmp.log"
	mv "$tmp" "$out"
}

# archive_index SUITE ARCH: print the path of the verified, uncompressed
# Packages file of SUITE's main component for ARCH.  Jobs of `make check`
# running at once (arm64 6.1 and 6.12 both read bookworm's) take turns.
archive_index() {
	local suite="$1" arch="$2" dir pk
	dir="$CACHE/archive/$suite"
	pk="$dir/main-$arch.Packages"
	if ! archive_fresh "$pk"; then
		mkdir -p "$dir"
		(
			flock -w 1800 9 || die "cannot lock $dir"
			archive_fresh "$pk" || archive_refresh "$suite" "$arch" "$pk"
		) 9> "$dir/.lock" || exit 1
	fi
	echo "$pk"
}

# archive_fresh FILE: FILE exists, not empty, made less than a day ago.
archive_fresh() {
	[ -s "$1" ] && [ -n "$(find "$1" -mmin -1440)" ]
}

# archive_refresh SUITE ARCH PK: download PK (see archive_index).
archive_refresh() {
	local suite="$1" arch="$2" pk="$3" dir rel sum
	dir=$(dirname "$pk")
	need_pkgs gpgv debian-archive-keyring xz-utils
	rel="$dir/InRelease"
	archive_get "$(archive_url "$suite")/dists/$suite/InRelease" "$rel.new"
	gpgv --keyring "$ARCHIVE_KEYRING" "$rel.new" > /dev/null 2>&1 ||
		die "$suite InRelease: no good signature from $ARCHIVE_KEYRING"
	mv "$rel.new" "$rel"
	sum=$(awk -v f="main/binary-$arch/Packages.xz" '
		/^SHA256:/ { in256 = 1; next }
		/^[^ ]/ { in256 = 0 }
		in256 && $3 == f { print $1; exit }' "$rel")
	[ -n "$sum" ] || die "$suite has no main/binary-$arch/Packages.xz"
	archive_get "$(archive_url "$suite")/dists/$suite/main/binary-$arch/Packages.xz" \
		"$pk.xz" "$sum"
	xz -dc "$pk.xz" > "$pk.tmp"
	rm -f "$pk.xz"
	mv "$pk.tmp" "$pk"
}

# archive_list SUITE ARCH REGEX: "PACKAGE VERSION" for every matching stanza.
archive_list() {
	local pk
	pk=$(archive_index "$1" "$2")
	awk -v re="$3" '
		/^Package: / { p = $2 }
		/^Version: / { v = $2 }
		/^$/ { if (p ~ re) print p, v; p = "" }
		END { if (p ~ re) print p, v }' "$pk"
}

# archive_newest SUITE ARCH REGEX: the newest match by Debian version order
# of the package names (which carry the ABI) and then the versions.
archive_newest() {
	archive_list "$@" | sort -V | tail -1
}

# archive_field SUITE ARCH PKG VER FIELD
archive_field() {
	local pk
	pk=$(archive_index "$1" "$2")
	awk -v p="$3" -v v="$4" -v f="$5:" '
		/^Package: / { pp = $2 }
		/^Version: / { vv = $2 }
		pp == p && vv == v && $1 == f { sub(/^[^:]*: */, ""); print; exit }
		/^$/ { pp = vv = "" }' "$pk"
}

# archive_fetch SUITE ARCH PKG [VER]: the .deb (newest VER if none given),
# checked against the index, cached in $CACHE/debs.
archive_fetch() {
	local suite="$1" arch="$2" pkg="$3" ver="${4:-}" file sum out
	if [ -z "$ver" ]; then
		ver=$(archive_list "$suite" "$arch" "^${pkg//+/\\+}\$" | sort -V | tail -1 |
			awk '{print $2}')
		[ -n "$ver" ] || die "$suite/$arch has no package $pkg"
	fi
	file=$(archive_field "$suite" "$arch" "$pkg" "$ver" Filename)
	sum=$(archive_field "$suite" "$arch" "$pkg" "$ver" SHA256)
	[ -n "$file" ] && [ -n "$sum" ] || die "$suite/$arch has no $pkg $ver"
	out="$CACHE/debs/$(basename "$file")"
	if [ ! -s "$out" ] || [ "$(sha256sum < "$out" | cut -d' ' -f1)" != "$sum" ]; then
		log "downloading $pkg $ver ($arch, $suite)"
		archive_get "$(archive_url "$suite")/$file" "$out" "$sum"
	fi
	echo "$out"
}
