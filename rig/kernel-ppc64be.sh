#!/usr/bin/env bash
# Build (once, cached) a ppc64 big-endian ELF ABIv1 pseries kernel from Debian's
# linux-source-6.1 plus a static big-endian busybox for the test initramfs.
#
#   rig/kernel-ppc64be.sh [all|kernel|userland]     (default: all)
#
# Everything goes under CACHE="${KRELOC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kreloc}":
#   $CACHE/dl/                       downloaded .debs / source packages
#   $CACHE/src/linux-source-<debver>/ pristine kernel source (shared, read-only use)
#   $CACHE/k/ppc64be-<kver>-<frag>/  result: env, build-time, build/ (O= tree = KDIR);
#                                    <frag>: the first 12 hex digits of the fragment's sha256
#   $CACHE/userland/ppc64be/busybox  static BE busybox (USERLAND)
# The last line on stdout is the path of the env file; logs go to stderr.
#
# Knobs: LINUX_SOURCE_VERSION=<debian version> pins linux-source-6.1;
#        KRELOC_JOBS (default: nproc); KRELOC_REBUILD=1 forces a rebuild;
#        KRELOC_BE_BUSYBOX_CONFIG=defconfig (default) | debian (Debian's busybox-static
#        config, the same applet set as the LE userland; rebuild with
#        KRELOC_REBUILD=1 rig/kernel-ppc64be.sh userland).
set -euo pipefail

CACHE="${KRELOC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kreloc}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FRAG="$HERE/configs/ppc64be-6.1.fragment"
CROSS=powerpc64-linux-gnu-
JOBS="${KRELOC_JOBS:-$(nproc)}"
MODE="${1:-all}"
USERLAND="$CACHE/userland/ppc64be"
# pseries under TCG: the cap-* settings silence "TCG doesn't support requested feature"
# warnings; x-vof=on boots through QEMU's minimal Virtual Open Firmware instead of SLOF
# (about 5 s faster per boot; drop ",x-vof=on" to use SLOF).
QEMU_ARGS="-M pseries,cap-cfpc=broken,cap-sbbc=broken,cap-ibs=broken,cap-ccf-assist=off,x-vof=on -m 1G -smp 1 -nographic -vga none -no-reboot"

# Shared helpers (apt, cache); this script keeps its own log prefix.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
log() { printf '[kernel-ppc64be] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

sha() { sha256sum "$1" | cut -d' ' -f1; }

kmake() { make -C "$SRC" O="$BUILD" ARCH=powerpc CROSS_COMPILE="$CROSS" LOCALVERSION= "$@"; }

# ---------------------------------------------------------------------------------------
# Results are keyed by the fragment's hash: a changed fragment builds a new
# tree beside the old one, so a run still using the old one is not disturbed.
FRAG_SHA="$(sha256sum "$FRAG" | cut -d' ' -f1)"
FRAG_ID="${FRAG_SHA:0:12}"

kernel_ok() {
    # 0 (and RES set) if a finished kernel of the current fragment exists (no apt/network needed).
    local res
    [[ -z "${KRELOC_REBUILD:-}" ]] || return 1
    for res in "$CACHE"/k/ppc64be-*-"$FRAG_ID"; do
        [[ -f "$res/done" && -f "$res/meta" && -f "$res/build/vmlinux" ]] || continue
        [[ "$(cat "$res/done")" == "$FRAG_SHA" ]] || continue
        RES="$res"
        return 0
    done
    return 1
}

fetch_source() {
    # -> sets SRC (pristine extracted linux-source tree) and DEBVER
    need_pkgs ca-certificates xz-utils
    local pol
    DEBVER="${LINUX_SOURCE_VERSION:-}"
    if [[ -z "$DEBVER" ]]; then
        pol="$(apt-cache policy linux-source-6.1 2>/dev/null | awk '/Candidate:/{print $2}')"
        if [[ -z "$pol" || "$pol" == "(none)" ]]; then
            apt_update
            pol="$(apt-cache policy linux-source-6.1 | awk '/Candidate:/{print $2}')"
        fi
        DEBVER="$pol"
    fi
    [[ -n "$DEBVER" && "$DEBVER" != "(none)" ]] || die "apt has no linux-source-6.1"
    SRC="$CACHE/src/linux-source-$DEBVER"
    [[ -f "$SRC/.kreloc-extracted" ]] && return 0

    mkdir -p "$CACHE/dl" "$CACHE/src"
    local deb="$CACHE/dl/linux-source-6.1_${DEBVER//:/%3a}_all.deb"
    if [[ ! -s "$deb" ]]; then
        log "downloading linux-source-6.1=$DEBVER"
        local t0=$SECONDS
        (cd "$CACHE/dl" && apt-get -o APT::Sandbox::User=root download "linux-source-6.1=$DEBVER" >&2)
        [[ -s "$deb" ]] || deb="$(ls -t "$CACHE"/dl/linux-source-6.1_*"${DEBVER##*:}"*_all.deb | head -1)"
        log "downloaded $(du -h "$deb" | cut -f1) in $((SECONDS - t0)) s"
    fi
    log "extracting $deb"
    local tmp="$SRC.tmp.$$"
    rm -rf "$tmp" && mkdir -p "$tmp"
    # dpkg -x equivalent, streaming the inner tarball instead of writing it out first
    dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-6.1.tar.xz | tar -xJ -C "$tmp"
    rm -rf "$SRC"
    mv "$tmp/linux-source-6.1" "$SRC"
    rmdir "$tmp"
    touch "$SRC/.kreloc-extracted"
}

verify_config() {
    local cfg="$BUILD/.config" bad=0 want
    for want in CONFIG_CPU_BIG_ENDIAN=y CONFIG_PPC64=y CONFIG_PPC_PSERIES=y \
                CONFIG_KPROBES=y CONFIG_KPROBE_EVENTS=y CONFIG_KALLSYMS_ALL=y \
                CONFIG_MODULES=y CONFIG_MODULE_UNLOAD=y CONFIG_DEBUG_FS=y \
                CONFIG_HVC_CONSOLE=y CONFIG_BLK_DEV_INITRD=y CONFIG_RD_GZIP=y \
                CONFIG_PPC_OF_BOOT_TRAMPOLINE=y CONFIG_BINFMT_SCRIPT=y; do
        grep -qx "$want" "$cfg" || { log "config: missing $want"; bad=1; }
    done
    if grep -q '^CONFIG_PPC64_BIG_ENDIAN_ELF_ABI_V2=y' "$cfg" || grep -q '^CONFIG_PPC64_ELF_ABI_V2=y' "$cfg"; then
        log "config: ELF ABI v2 is enabled, want ABIv1"; bad=1
    fi
    grep -q '^CONFIG_PPC64_ELF_ABI_V1=y' "$cfg" || log "note: CONFIG_PPC64_ELF_ABI_V1 not present (ok on 6.1)"
    # Every fragment line should have survived (report, not fatal beyond the list above).
    local line sym
    while IFS= read -r line; do
        case "$line" in
            CONFIG_*=*) grep -qx "$line" "$cfg" || log "warning: fragment line not honoured: $line" ;;
            "# CONFIG_"*" is not set")
                sym="${line#\# }"; sym="${sym%% *}"
                grep -q "^$sym=" "$cfg" && log "warning: fragment wants $sym unset" ;;
        esac
    done <"$FRAG"
    ((bad == 0)) || die "kernel config verification failed (see $cfg)"
}

build_kernel() {
    need_pkgs make gcc libc6-dev bc bison flex libelf-dev libssl-dev xz-utils cpio kmod \
              gcc-powerpc64-linux-gnu binutils-powerpc64-linux-gnu
    [[ -f "$FRAG" ]] || die "missing $FRAG"
    fetch_source
    local kv kver
    kv="$(make -s -C "$SRC" kernelversion)"
    # allnoconfig + fragment keeps CONFIG_LOCALVERSION empty and we pass LOCALVERSION=,
    # so kernelrelease == kernelversion (no '+' even when the cache is inside a git tree).
    kver="$kv"
    RES="$CACHE/k/ppc64be-$kver-$FRAG_ID"
    BUILD="$RES/build"
    mkdir -p "$BUILD"
    rm -f "$RES/done"

    log "configuring in $BUILD (allnoconfig + $(basename "$FRAG"))"
    kmake allnoconfig >&2
    # merge_config.sh must run from the source dir; -m: merge only, then olddefconfig.
    (cd "$SRC" && ARCH=powerpc CROSS_COMPILE="$CROSS" \
        ./scripts/kconfig/merge_config.sh -m -O "$BUILD" "$BUILD/.config" "$FRAG" >&2)
    kmake olddefconfig >&2
    verify_config
    local rel
    rel="$(kmake -s kernelrelease)"
    [[ "$rel" == "$kver" ]] || die "kernelrelease '$rel' != expected '$kver'"

    log "building vmlinux + modules with -j$JOBS (takes minutes under 2 cores)"
    local fresh=0 t0=$SECONDS
    [[ -f "$BUILD/vmlinux" ]] || fresh=1
    kmake -j"$JOBS" vmlinux modules >&2
    kmake modules_prepare >&2
    local secs=$((SECONDS - t0))
    [[ -f "$BUILD/Module.symvers" ]] || die "no Module.symvers after 'make modules'"
    [[ -f "$BUILD/vmlinux" && -f "$BUILD/System.map" ]] || die "no vmlinux/System.map"
    # ELF-level check that this really is big-endian ELF ABIv1 (function descriptors)
    "${CROSS}readelf" -h "$BUILD/vmlinux" | grep -c 'big endian' >/dev/null || die "vmlinux is not big-endian"
    "${CROSS}readelf" -h "$BUILD/vmlinux" | grep -c 'Flags:.*abiv1' >/dev/null || die "vmlinux is not ELF ABIv1"
    "${CROSS}readelf" -S -W "$BUILD/vmlinux" | grep -c ' \.opd ' >/dev/null || die "vmlinux has no .opd section"
    grep -q ' T \.kernel_clone$' "$BUILD/System.map" || die "System.map has no '.kernel_clone' (ELFv1 dot symbol)"
    # Only a build from an empty tree gives a meaningful number; an incremental re-make
    # (KRELOC_REBUILD=1, changed fragment) keeps the old one.
    if [[ $fresh == 1 || ! -f "$RES/build-time" ]]; then echo "$secs" >"$RES/build-time"; fi
    log "build took ${secs}s"

    local moddir=""
    if [[ -s "$BUILD/modules.order" ]]; then
        rm -rf "$RES/modroot"
        kmake INSTALL_MOD_PATH="$RES/modroot" modules_install >&2
        moddir="$RES/modroot/lib/modules/$kver"
    fi

    cat >"$RES/meta" <<EOF
KVER=$kver
DEBVER=$DEBVER
SRC=$SRC
MODDIR=$moddir
EOF
    echo "$FRAG_SHA" >"$RES/done"
}

# The env file is regenerated (cheaply) on every run from the build's meta file, so a
# change of QEMU_ARGS etc. in this script reaches existing caches without a rebuild.
write_env() {
    local res="$RES" KVER DEBVER SRC MODDIR reloc=""
    # shellcheck disable=SC1091
    . "$res/meta"
    # CONFIG_RELOCATABLE_TEST: started at another address (run-vm.sh
    # --kernel-addr), the kernel runs there, as a kdump kernel does.
    grep -qx 'CONFIG_RELOCATABLE_TEST=y' "$res/build/.config" && reloc=0x2000000
    cat >"$res/env.tmp" <<EOF
# generated by rig/kernel-ppc64be.sh from linux-source-6.1 $DEBVER
KVER=$KVER
KARCH=powerpc
UNAME_M=ppc64
CROSS_COMPILE=$CROSS
KDIR=$res/build
KSRC=$SRC
KIMAGE=$res/build/vmlinux
VMLINUX=$res/build/vmlinux
SYSTEM_MAP=$res/build/System.map
MODDIR=$MODDIR
QEMU_BIN=qemu-system-ppc64
QEMU_ARGS="$QEMU_ARGS"
CONSOLE=hvc0
USERLAND=$USERLAND
DEBIAN_SOURCE_VERSION=$DEBVER
RELOCATED_KERNEL_ADDR=$reloc
EOF
    if cmp -s "$res/env.tmp" "$res/env"; then rm -f "$res/env.tmp"; else mv "$res/env.tmp" "$res/env"; fi
    echo "$res/env"
}

# --------------------------------------------------------------------------------------
# Userland: Debian ships no big-endian ppc64 busybox, so build busybox from Debian's
# source package statically with the BE cross compiler.
DEBSRC_FILE=/etc/apt/sources.list.d/kreloc-deb-src.sources
ensure_deb_src() {
    # Need a deb-src line for bookworm main on deb.debian.org; add our own file only if
    # no configured source already provides busybox sources.
    apt-cache showsrc busybox 2>/dev/null | grep -c '^Package: busybox' >/dev/null && return 0
    if ! grep -rqsE '^(deb-src[[:space:]].*deb\.debian\.org/debian[[:space:]]+bookworm[[:space:]]|Types:.*deb-src)' \
            /etc/apt/sources.list /etc/apt/sources.list.d/; then
        log "adding $DEBSRC_FILE (deb-src bookworm main)"
        cat >"$DEBSRC_FILE" <<'EOS'
# added by kreloc rig/kernel-ppc64be.sh: source packages (busybox for a static BE build)
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
    fi
    apt_update
    apt-cache showsrc busybox 2>/dev/null | grep -c '^Package: busybox' >/dev/null ||
        die "apt has no busybox source package even with deb-src configured"
}

build_userland() {
    if [[ -x "$USERLAND/busybox" && -z "${KRELOC_REBUILD:-}" ]]; then return 0; fi
    need_pkgs make gcc libc6-dev dpkg-dev xz-utils gcc-powerpc64-linux-gnu \
              binutils-powerpc64-linux-gnu libc6-dev-ppc64-cross file
    ensure_deb_src
    local ver dir bsrc bdir
    ver="$(apt-cache showsrc busybox | awk '/^Version:/{print $2}' | sort -Vr | head -1)"
    dir="$CACHE/src/busybox-src-${ver//:/_}"
    if [[ ! -f "$dir/.kreloc-extracted" ]]; then
        log "apt-get source busybox=$ver"
        rm -rf "$dir" && mkdir -p "$dir"
        (cd "$dir" && apt-get -o APT::Sandbox::User=root source "busybox=$ver" >&2)
        touch "$dir/.kreloc-extracted"
    fi
    bsrc="$(find "$dir" -mindepth 1 -maxdepth 1 -type d -name 'busybox-*' | head -1)"
    [[ -f "$bsrc/Makefile" ]] || die "no busybox tree in $dir"
    bdir="$CACHE/src/busybox-build-ppc64be"
    rm -rf "$bdir" && mkdir -p "$bdir"
    local bbmake=(make -C "$bsrc" O="$bdir" ARCH=powerpc CROSS_COMPILE="$CROSS")
    local bbcfg="${KRELOC_BE_BUSYBOX_CONFIG:-defconfig}"
    case "$bbcfg" in
        defconfig)
            log "busybox $ver: defconfig + CONFIG_STATIC, cross-building with ${CROSS}gcc"
            "${bbmake[@]}" defconfig >&2 ;;
        debian)
            # the config Debian builds busybox-static (the LE userland) with
            log "busybox $ver: Debian's busybox-static config, cross-building with ${CROSS}gcc"
            cat "$bsrc/debian/config/os/linux" "$bsrc/debian/config/pkg/static" >"$bdir/.config" ;;
        *) die "KRELOC_BE_BUSYBOX_CONFIG must be defconfig or debian" ;;
    esac
    # static; drop applets that do not link statically against glibc or need headers
    # the cross libc does not have (reported as warnings only, not needed by our tests)
    sed -i -e 's/^# CONFIG_STATIC is not set/CONFIG_STATIC=y/' \
           -e 's/^CONFIG_TC=y/# CONFIG_TC is not set/' "$bdir/.config"
    { yes '' || true; } | "${bbmake[@]}" oldconfig >/dev/null   # yes dies of SIGPIPE
    grep -qx 'CONFIG_STATIC=y' "$bdir/.config" || die "busybox: CONFIG_STATIC did not stick"
    local t0=$SECONDS
    "${bbmake[@]}" -j"$JOBS" busybox >&2
    log "busybox build took $((SECONDS - t0)) s"
    local bin="$bdir/busybox"
    file "$bin" | grep -c 'ELF 64-bit MSB executable, 64-bit PowerPC' >/dev/null || die "busybox is not a ppc64 BE executable: $(file "$bin")"
    file "$bin" | grep -c 'statically linked' >/dev/null || die "busybox is not static: $(file "$bin")"
    mkdir -p "$USERLAND"
    install -m755 "$bin" "$USERLAND/busybox"
    cp "$bdir/.config" "$USERLAND/busybox.config"
    echo "busybox $ver (Debian source), config=$bbcfg+static, ${CROSS}gcc" >"$USERLAND/SOURCE"
}

main() {
    mkdir -p "$CACHE/k" "$CACHE/tmp"
    case "$MODE" in
        kernel|userland|all) ;;
        *) die "usage: $0 [all|kernel|userland]" ;;
    esac
    if [[ "$MODE" != kernel ]]; then build_userland; fi
    if [[ "$MODE" != userland ]]; then
        # even on the cached path, the tree is only usable with its cross toolchain
        need_pkgs make gcc-powerpc64-linux-gnu binutils-powerpc64-linux-gnu
        # One build per fragment, whoever asks first; the others wait for it.
        exec {lock}>"$CACHE/k/ppc64be-$FRAG_ID.lock"
        flock "$lock"
        kernel_ok || build_kernel
        write_env
        exec {lock}>&-
    fi
}
main "$@"
