#!/usr/bin/env bash
# Fetch (once, cached) Debian bookworm's ppc64el 6.1 kernel, its headers made usable for a
# cross build from amd64, and busybox-static:ppc64el for the test initramfs.
#
#   rig/kernel-ppc64le.sh
#
# Everything goes under CACHE="${KRELOC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kreloc}":
#   $CACHE/dl/                     downloaded .debs
#   $CACHE/k/ppc64le-<kver>/       result: env, root/ (dpkg -x of image+headers+kbuild)
#   $CACHE/userland/ppc64le/busybox
# The last line on stdout is the path of the env file; logs go to stderr.
#
# Knobs: PPC64LE_ABI=6.1.0-N pins the kernel ABI; KRELOC_REBUILD=1 forces a refetch.
set -euo pipefail

CACHE="${KRELOC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kreloc}"
CROSS=powerpc64le-linux-gnu-
USERLAND="$CACHE/userland/ppc64le"
DL="$CACHE/dl"
# pseries under TCG: the cap-* settings silence "TCG doesn't support requested feature"
# warnings; x-vof=on boots through QEMU's minimal Virtual Open Firmware instead of SLOF
# (about 5 s faster per boot; drop ",x-vof=on" to use SLOF).
QEMU_ARGS="-M pseries,cap-cfpc=broken,cap-sbbc=broken,cap-ibs=broken,cap-ccf-assist=off,x-vof=on -m 1G -smp 1 -nographic -vga none -no-reboot"

# Shared helpers (apt, cache); this script keeps its own log prefix.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
log() { printf '[kernel-ppc64le] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }


# apt-get download PKG[:ARCH][=VER] into $DL; prints the .deb path. Reuses a cached file.
# (apt-get download verifies size+hash against the index, which is exactly the check that
# fails for the out-of-step bookworm-security ppc64el index.)
download() {
    local spec="$1" name arch ver f
    name="${spec%%[:=]*}"
    arch=$(sed -n 's/^[^:=]*:\([^=]*\).*/\1/p' <<<"$spec")
    ver=$(sed -n 's/^[^=]*=//p' <<<"$spec")
    mkdir -p "$DL"
    if [[ -n "$ver" ]]; then
        f="$DL/${name}_${ver//:/%3a}_${arch:-*}.deb"
        # shellcheck disable=SC2086
        for f in $f; do [[ -s "$f" ]] && { echo "$f"; return 0; }; done
    fi
    local out
    out="$(mktemp -d "$CACHE/tmp/dl.XXXXXX")"
    # root-owned cache dir: let apt fetch as root instead of warning about the _apt sandbox
    if ! (cd "$out" && apt-get -o APT::Sandbox::User=root download "$spec" >&2); then rm -rf "$out"; return 1; fi
    f="$(ls "$out"/*.deb)"
    mv "$f" "$DL/" && rm -rf "$out"
    echo "$DL/$(basename "$f")"
}

result_ok() {
    local cur="$CACHE/k/ppc64le.current" res
    [[ -z "${KRELOC_REBUILD:-}" && -f "$cur" ]] || return 1
    res="$(cat "$cur")"
    [[ -f "$res/done" && -f "$res/meta" && -x "$USERLAND/busybox" ]]
}

ensure_arch() {
    if ! dpkg --print-foreign-architectures | grep -cx ppc64el >/dev/null; then
        log "dpkg --add-architecture ppc64el"
        dpkg --add-architecture ppc64el
        apt_update
    elif ! apt-cache show busybox-static:ppc64el >/dev/null 2>&1; then
        apt_update
    fi
}

# newest-first list of "ABI DEBVER" for linux-image-6.1.0-*-powerpc64le in the ppc64el index
candidates() {
    local pkg
    apt-cache pkgnames linux-image-6.1.0- 2>/dev/null |
        grep -E '^linux-image-6\.1\.0-[0-9]+-powerpc64le(-unsigned)?$' | sort -u |
        while read -r pkg; do
            apt-cache madison "$pkg:ppc64el" 2>/dev/null | awk -v p="$pkg" '{print p, $3}'
        done | sort -k2,2Vr -u
}

main() {
    mkdir -p "$CACHE/k" "$CACHE/tmp" "$DL"
    if result_ok; then
        # even on the cached path, the headers are only usable with the cross toolchain
        need_pkgs make gcc-powerpc64le-linux-gnu binutils-powerpc64le-linux-gnu
        write_env
        return 0
    fi

    need_pkgs ca-certificates xz-utils gcc-powerpc64le-linux-gnu binutils-powerpc64le-linux-gnu \
              libc6-dev-ppc64el-cross \
              make gcc libc6-dev bc flex bison libelf-dev libssl-dev kmod
    ensure_arch

    # ---- pick the newest kernel whose image+headers actually download ------------------
    local pkg debver abi img hdr com t0 got=""
    t0=$SECONDS
    while read -r pkg debver; do
        [[ -n "$pkg" ]] || continue
        abi="${pkg#linux-image-}"; abi="${abi%-powerpc64le*}"
        if [[ -n "${PPC64LE_ABI:-}" && "$abi" != "$PPC64LE_ABI" ]]; then continue; fi
        log "trying $pkg=$debver"
        img="$(download "$pkg:ppc64el=$debver")" || { log "  $pkg=$debver does not download, next"; continue; }
        hdr="$(download "linux-headers-$abi-powerpc64le:ppc64el=$debver")" || { log "  headers for $abi missing, next"; continue; }
        com="$(download "linux-headers-$abi-common=$debver")" || { log "  common headers for $abi missing, next"; continue; }
        got=1; break
    done < <(candidates)
    [[ -n "$got" ]] || die "no downloadable linux-image-6.1.0-*-powerpc64le for ppc64el"
    local kver="$abi-powerpc64le"
    log "using $pkg $debver (kernelrelease $kver), downloads took $((SECONDS - t0)) s"

    # Matching amd64 kbuild tools (scripts/, tools/): prefer the same Debian version,
    # cached; fall back to the installed /usr/lib/linux-kbuild-6.1.
    local kb kbdir
    if kb="$(download "linux-kbuild-6.1:amd64=$debver")"; then
        kbdir=KBUILD_CACHED
    else
        log "linux-kbuild-6.1=$debver not available for amd64, using the installed one"
        need_pkgs linux-kbuild-6.1
        kbdir=/usr/lib/linux-kbuild-6.1
        kb=""
    fi

    # ---- unpack -------------------------------------------------------------------------
    local res="$CACHE/k/ppc64le-$kver" root
    root="$res/root"
    rm -rf "$res" && mkdir -p "$root"
    local d
    for d in "$img" "$hdr" "$com" ${kb:+"$kb"}; do log "dpkg -x $(basename "$d")"; dpkg -x "$d" "$root"; done
    [[ "$kbdir" == KBUILD_CACHED ]] && kbdir="$root/usr/lib/linux-kbuild-6.1"
    [[ -x "$kbdir/scripts/basic/fixdep" ]] || die "$kbdir/scripts/basic/fixdep missing"

    local kdir="$root/usr/src/linux-headers-$kver" common="$root/usr/src/linux-headers-$abi-common"
    [[ -f "$kdir/Makefile" && -d "$common" ]] || die "unexpected headers layout in $root/usr/src"
    # absolute include of the -common Makefile -> the cached copy
    sed -i "s#/usr/src/linux-headers-$abi-common#$common#g" "$kdir/Makefile"
    grep -q "$common" "$kdir/Makefile" || die "could not rewrite the include in $kdir/Makefile"
    # scripts/tools links (relative to /usr/lib/linux-kbuild-6.1 in the package) -> amd64 kbuild
    local dir l
    for dir in "$kdir" "$common"; do
        for l in scripts tools; do
            if [[ -L "$dir/$l" ]]; then ln -sfn "$kbdir/$l" "$dir/$l"; fi
        done
    done
    [[ -L "$kdir/scripts" || -d "$kdir/scripts" ]] || ln -sfn "$kbdir/scripts" "$kdir/scripts"
    [[ -e "$kdir/scripts/basic/fixdep" ]] || die "$kdir/scripts does not resolve"

    local kimage="$root/boot/vmlinux-$kver" smap="$root/boot/System.map-$kver" sysmap=""
    [[ -f "$kimage" ]] || die "no $kimage in the image package"
    # Debian's /boot/System.map is a one-line placeholder ("The real System.map is in the
    # linux-image-<version>-dbg package"), but the ppc64el /boot/vmlinux keeps its .symtab,
    # so regenerate the map from it with the kernel's own scripts/mksysmap filter.
    if [[ -f "$smap" ]] && (($(wc -l <"$smap") > 1000)); then
        sysmap="$smap"
    elif "${CROSS}readelf" -S "$kimage" | grep -c '\.symtab' >/dev/null; then
        log "System.map-$kver is a placeholder; generating $res/System.map from vmlinux .symtab"
        NM="${CROSS}nm" sh "$kbdir/scripts/mksysmap" "$kimage" "$res/System.map"
        grep -q ' T _stext$' "$res/System.map" || die "generated System.map has no _stext"
        sysmap="$res/System.map"
    else
        log "System.map-$kver is a placeholder and vmlinux is stripped: SYSTEM_MAP left empty"
    fi
    local moddir="$root/lib/modules/$kver"
    [[ -d "$moddir" ]] || moddir=""

    # ---- userland: busybox-static for ppc64el ------------------------------------------
    if [[ ! -x "$USERLAND/busybox" || -n "${KRELOC_REBUILD:-}" ]]; then
        local bb
        bb="$(download busybox-static:ppc64el)" || die "cannot download busybox-static:ppc64el"
        rm -rf "$CACHE/tmp/bb-le" && mkdir -p "$CACHE/tmp/bb-le" "$USERLAND"
        dpkg -x "$bb" "$CACHE/tmp/bb-le"
        install -m755 "$CACHE/tmp/bb-le/bin/busybox" "$USERLAND/busybox"
        rm -rf "$CACHE/tmp/bb-le"
        basename "$bb" >"$USERLAND/SOURCE"
    fi

    cat >"$res/meta" <<EOF
KVER=$kver
PKG=$pkg
DEBVER=$debver
KDIR=$kdir
KIMAGE=$kimage
SYSTEM_MAP=$sysmap
MODDIR=$moddir
EOF
    date +%s >"$res/done"
    echo "$res" >"$CACHE/k/ppc64le.current"
    write_env
}

# The env file is regenerated (cheaply) on every run from the result's meta file.
write_env() {
    local res KVER PKG DEBVER KDIR KIMAGE SYSTEM_MAP MODDIR
    res="$(cat "$CACHE/k/ppc64le.current")"
    # shellcheck disable=SC1091
    . "$res/meta"
    cat >"$res/env.tmp" <<EOF
# generated by rig/kernel-ppc64le.sh from $PKG $DEBVER (ppc64el)
KVER=$KVER
KARCH=powerpc
UNAME_M=ppc64le
CROSS_COMPILE=$CROSS
KDIR=$KDIR
KIMAGE=$KIMAGE
VMLINUX=$KIMAGE
SYSTEM_MAP=$SYSTEM_MAP
MODDIR=$MODDIR
QEMU_BIN=qemu-system-ppc64
QEMU_ARGS="$QEMU_ARGS"
CONSOLE=hvc0
USERLAND=$USERLAND
DEBIAN_VERSION=$DEBVER
EOF
    if cmp -s "$res/env.tmp" "$res/env"; then rm -f "$res/env.tmp"; else mv "$res/env.tmp" "$res/env"; fi
    echo "$res/env"
}
main "$@"
