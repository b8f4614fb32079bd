#!/bin/bash
# Builds the jrnic siw guest (kernel + initramfs) from Debian packages only.
#
#   interop/siw-guest/build-image.sh [--print-dir] [--force]
#
# Output: $JRNIC_SIW_CACHE/<key>/{vmlinuz,initramfs.img,versions.txt,build.log}
# (JRNIC_SIW_CACHE defaults to ~/.cache/jrnic-siw), and the symlink
# $JRNIC_SIW_CACHE/current -> <key>. <key> hashes the exact versions of every Debian
# package that goes into the image plus this script and the guest's /init, so a second
# run with the same versions finds the image and does nothing.
# Needs root (apt-get install of the host tools). Prints the image directory last.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${JRNIC_SIW_CACHE:-$HOME/.cache/jrnic-siw}
FORCE=0
for a in "$@"; do
  case "$a" in
    --force) FORCE=1 ;;
    --print-dir) ;;
    *) echo "usage: $0 [--force]" >&2; exit 2 ;;
  esac
done
T0=$(date +%s)
log() { echo "[build-image $(($(date +%s) - T0))s] $*" >&2; }
die() { echo "build-image: $*" >&2; exit 1; }

export DEBIAN_FRONTEND=noninteractive
HOST_PKGS=(qemu-system-x86 gcc-12 make busybox-static cpio iproute2 kmod zstd xz-utils binutils)
GUEST_PKGS=(rdmacm-utils perftest ibverbs-utils ibverbs-providers libibverbs1 librdmacm1 iproute2 tcpdump e2fsprogs)

candidate() { apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2}'; }

# --- 1. resolve versions (apt lists are needed for that) -------------------------------
if [ -z "$(candidate linux-image-amd64)" ] || [ "$(candidate linux-image-amd64)" = "(none)" ]; then
  log "apt-get update"
  apt-get update -q >&2
fi
IMG_PKG=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-/ {print $2; exit}')
[ -n "$IMG_PKG" ] || die "cannot resolve the kernel image package behind linux-image-amd64"
ABI=${IMG_PKG#linux-image-}                       # e.g. 6.1.0-56-amd64
KVER_IMG=$(candidate "$IMG_PKG")
HDR_PKG=linux-headers-$ABI
SRC_PKG=linux-source-6.1
KVER_SRC=$(candidate "$SRC_PKG")
[ "$KVER_IMG" = "$KVER_SRC" ] || die "$IMG_PKG $KVER_IMG and $SRC_PKG $KVER_SRC differ: siw.ko must be built from the matching source"

# Dependency closure of the guest userspace (Depends/Pre-Depends only; virtual names dropped).
CLOSURE=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
            --no-replaces --no-enhances "${GUEST_PKGS[@]}" | grep -v '^ ' | grep -v '^<' | sort -u)
VERSIONS=$( {
  apt-cache policy "$IMG_PKG" "$HDR_PKG" "$SRC_PKG" busybox-static gcc-12 $CLOSURE |
    awk '/^[^ ]/ {p=$1; sub(/:$/, "", p)} /Candidate:/ {print p, $2}' 
  echo "build-image.sh $(sha256sum "$0" | cut -c1-16)"
  echo "init $(sha256sum "$HERE/init" | cut -c1-16)"
} )
KEY=$(echo "$VERSIONS" | sha256sum | cut -c1-16)
OUT=$CACHE/$KEY
if [ $FORCE = 0 ] && [ -s "$OUT/vmlinuz" ] && [ -s "$OUT/initramfs.img" ]; then
  ln -sfn "$KEY" "$CACHE/current"
  log "cached image for $IMG_PKG $KVER_IMG: $OUT"
  echo "$OUT"
  exit 0
fi

# --- 2. host tools -------------------------------------------------------------------
missing=()
for p in "${HOST_PKGS[@]}" "$HDR_PKG" "$SRC_PKG"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi
INSTALLED_HDR=$(dpkg-query -W -f='${Version}' "$HDR_PKG")
[ "$INSTALLED_HDR" = "$KVER_IMG" ] || die "$HDR_PKG installed at $INSTALLED_HDR, image is $KVER_IMG (apt-get install $HDR_PKG)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/jrnic-siw-build.XXXXXX")
TMPOUT=$CACHE/.tmp-$KEY
trap 'rm -rf "$WORK" "$TMPOUT"' EXIT
trap 'exit 130' INT TERM HUP
mkdir -p "$CACHE"

# --- 3. siw.ko, stock and "params" variant -----------------------------------------------
log "extracting drivers/infiniband/sw/siw from $SRC_PKG $KVER_SRC"
tar -xJf "/usr/src/linux-source-6.1.tar.xz" -C "$WORK" --wildcards 'linux-source-6.1/drivers/infiniband/sw/siw/*'
SIWSRC=$WORK/linux-source-6.1/drivers/infiniband/sw/siw
KBUILD=/usr/src/linux-headers-$ABI

build_siw() { # $1 variant dir
  make -s -C "$KBUILD" M="$1" CONFIG_RDMA_SIW=m CC=gcc-12 modules >&2
  [ -s "$1/siw.ko" ] || die "siw.ko not built in $1"
}
cp -r "$SIWSRC" "$WORK/siw-stock"
cp -r "$SIWSRC" "$WORK/siw-params"

# The params variant turns siw's compile-time connection settings into writable module
# parameters (also changeable at run time under /sys/module/siw/parameters/). Names are the
# variables siw 6.1 declares; every edit is checked so a changed source fails loudly.
P=$WORK/siw-params
patch_var() { # file, regex of the declaration, replacement, grep proof
  sed -i -E "s/$2/$3/" "$P/$1"
  grep -qE "$4" "$P/$1" || die "could not patch '$2' in $1 (source changed?)"
}
for v in mpa_crc_required mpa_crc_strict peer_to_peer; do
  patch_var siw_main.c "^const bool $v;" "bool $v;\\nmodule_param($v, bool, 0644);" "^module_param\\($v, bool"
  patch_var siw.h "^extern const bool $v;" "extern bool $v;" "^extern bool $v;"
done
patch_var siw_main.c '^u_char mpa_version = MPA_REVISION_2;' \
  'u_char mpa_version = MPA_REVISION_2;\nmodule_param(mpa_version, byte, 0644);' '^module_param\(mpa_version, byte'
patch_var siw_cm.c '^static const bool relaxed_ird_negotiation = true;' \
  '#include <linux\/moduleparam.h>\nstatic bool relaxed_ird_negotiation = true;\nmodule_param(relaxed_ird_negotiation, bool, 0644);' \
  '^module_param\(relaxed_ird_negotiation, bool'
cat >> "$P/siw_main.c" <<'EOF'
MODULE_PARM_DESC(mpa_crc_required, "jrnic build: request MPA CRC (C flag)");
MODULE_PARM_DESC(mpa_crc_strict, "jrnic build: reject peers whose CRC setting differs");
MODULE_PARM_DESC(peer_to_peer, "jrnic build: MPA v2 peer-to-peer mode (RTR) as initiator");
MODULE_PARM_DESC(mpa_version, "jrnic build: MPA revision of Requests (1 or 2)");
EOF
log "building siw.ko (stock, params) against $HDR_PKG"
build_siw "$WORK/siw-stock"
build_siw "$WORK/siw-params"
modinfo -F parm "$P/siw.ko" | grep -q '^peer_to_peer:' || die "params variant lacks parameters"

# --- 4. Debian packages for the guest -------------------------------------------------------
mkdir -p "$WORK/debs" "$WORK/stage" "$WORK/kimg"
log "apt-get download kernel image + $(echo "$CLOSURE" | wc -w) userspace packages"
(cd "$WORK/debs" && apt-get download -q "$IMG_PKG=$KVER_IMG" $CLOSURE >&2)
dpkg -x "$WORK/debs/${IMG_PKG}_"*.deb "$WORK/kimg"
for d in "$WORK"/debs/*.deb; do
  case "$(basename "$d")" in linux-image-*) ;; *) dpkg -x "$d" "$WORK/stage" ;; esac
done

# --- 5. initramfs root ------------------------------------------------------------------
R=$WORK/root
mkdir -p "$R"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,run,root,mnt/host,lib/modules}
STAGE=$WORK/stage

# Userspace: the tools we run, then the shared libraries they need (ELF NEEDED closure,
# resolved inside the extracted packages), the dynamic loader and the siw verbs provider.
copy_from_stage() { # path relative to /, copies symlink chains too
  local rel=$1
  while :; do
    [ -e "$R/$rel" ] || [ -L "$R/$rel" ] && return 0
    mkdir -p "$R/$(dirname "$rel")"
    cp -a "$STAGE/$rel" "$R/$rel"
    [ -L "$STAGE/$rel" ] || return 0
    local t; t=$(readlink "$STAGE/$rel")
    case "$t" in /*) rel=${t#/} ;; *) rel=$(dirname "$rel")/$t ;; esac
  done
}
stage_resolve() { # follows a symlink chain inside the stage, prints the final relative path
  local rel=$1 t
  while [ -L "$STAGE/$rel" ]; do
    t=$(readlink "$STAGE/$rel")
    case "$t" in /*) rel=${t#/} ;; *) rel=$(dirname "$rel")/$t ;; esac
  done
  echo "$rel"
}
TOOLS=()
for f in usr/bin/rping usr/bin/ucmatose usr/bin/rdma_server usr/bin/rdma_client usr/bin/udaddy \
         usr/bin/riostream usr/bin/rstream usr/bin/cmtime usr/bin/tcpdump \
         bin/ip sbin/ip usr/bin/rdma bin/ss sbin/tc sbin/bridge \
         sbin/mke2fs usr/sbin/mke2fs sbin/mkfs.ext4 usr/sbin/mkfs.ext4 sbin/e2fsck usr/sbin/e2fsck \
         sbin/fsck.ext4 usr/sbin/fsck.ext4; do
  [ -e "$STAGE/$f" ] && TOOLS+=("$f")
done
for f in "$STAGE"/usr/bin/ib_* "$STAGE"/usr/bin/ibv_*; do TOOLS+=("${f#"$STAGE"/}"); done
for f in "$STAGE"/usr/lib/x86_64-linux-gnu/libibverbs/libsiw-*.so; do TOOLS+=("${f#"$STAGE"/}"); done
[ ${#TOOLS[@]} -gt 10 ] || die "userspace tools not found in the extracted packages"
for f in "${TOOLS[@]}"; do copy_from_stage "$f"; done
copy_from_stage etc/libibverbs.d/siw.driver
[ -e "$STAGE/etc/mke2fs.conf" ] && copy_from_stage etc/mke2fs.conf
# dlopened, so no NEEDED entry names it: glibc loads libgcc_s for thread exit/cancellation
TOOLS+=("$(stage_resolve lib/x86_64-linux-gnu/libgcc_s.so.1)")
copy_from_stage lib/x86_64-linux-gnu/libgcc_s.so.1
copy_from_stage lib64/ld-linux-x86-64.so.2
LIBDIRS="lib/x86_64-linux-gnu usr/lib/x86_64-linux-gnu lib usr/lib"
declare -A seen=()
queue=("${TOOLS[@]}")
while [ ${#queue[@]} -gt 0 ]; do
  f=$(stage_resolve "${queue[0]}"); queue=("${queue[@]:1}")
  for n in $(readelf -d "$STAGE/$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    [ -n "${seen[$n]:-}" ] && continue
    seen[$n]=1
    found=
    for d in $LIBDIRS; do
      if [ -e "$STAGE/$d/$n" ]; then found=$d/$n; break; fi
    done
    [ -n "$found" ] || die "library $n (needed by $f) is in none of the downloaded packages"
    copy_from_stage "$found"
    queue+=("$(stage_resolve "$found")")
  done
done

# busybox for everything else (applets never shadow the real tools copied above)
cp /bin/busybox "$R/bin/busybox"
for a in $(/bin/busybox --list-full); do
  b=$(basename "$a"); shadowed=
  for d in bin sbin usr/bin usr/sbin; do [ -e "$R/$d/$b" ] || [ -L "$R/$d/$b" ] && shadowed=1; done
  [ -n "$shadowed" ] || ln -s /bin/busybox "$R/$a"
done
printf 'root:x:0:0:root:/root:/bin/sh\ntcpdump:x:104:104:tcpdump:/nonexistent:/bin/false\n' > "$R/etc/passwd"
printf 'root:x:0:\ntcpdump:x:104:\n' > "$R/etc/group"
printf '127.0.0.1 localhost\n' > "$R/etc/hosts"
printf '/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu\n' > "$R/etc/ld.so.conf"
ldconfig -r "$R"

# Kernel modules: what /init loads, plus their dependency closure (modinfo depends).
MODSRC=$WORK/kimg/lib/modules/$ABI
MODDST=$R/lib/modules/$ABI
mkdir -p "$MODDST/jrnic/stock" "$MODDST/jrnic/params"
cp "$MODSRC"/modules.builtin* "$MODSRC"/modules.order "$MODDST/"
declare -A modpath=()
while IFS= read -r p; do b=$(basename "$p" .ko); modpath[${b//-/_}]=$p; done < <(find "$MODSRC/kernel" -name '*.ko')
want=(virtio_pci virtio_net virtio_console 9pnet_virtio 9p crc32c_generic libcrc32c
      ib_core ib_uverbs iw_cm rdma_cm rdma_ucm)
# NVMe over Fabrics (the nvmf cases): host and target over RDMA, a null_blk/loop/file backing, ext4
want+=(nvme_core nvme_fabrics nvme_rdma nvmet nvmet_rdma null_blk loop ext4 configfs)
want+=($(modinfo -F depends "$WORK/siw-stock/siw.ko" | tr ',' ' '))
declare -A have=()
while [ ${#want[@]} -gt 0 ]; do
  m=${want[0]//-/_}; want=("${want[@]:1}")
  [ -z "$m" ] || [ -n "${have[$m]:-}" ] && continue
  have[$m]=1
  p=${modpath[$m]:-}
  if [ -z "$p" ]; then
    grep -q "/$m.ko\$\|/${m//_/-}.ko\$" "$MODSRC/modules.builtin" && continue
    die "kernel module $m not found in $IMG_PKG"
  fi
  mkdir -p "$MODDST/$(dirname "${p#"$MODSRC"/}")"
  cp "$p" "$MODDST/${p#"$MODSRC"/}"
  want+=($(modinfo -F depends "$p" | tr ',' ' '))
done
cp "$WORK/siw-stock/siw.ko" "$MODDST/jrnic/stock/siw.ko"
cp "$WORK/siw-params/siw.ko" "$MODDST/jrnic/params/siw.ko"
depmod -b "$R" "$ABI"

install -m 0755 "$HERE/init" "$R/init"

# --- 6. pack -----------------------------------------------------------------------------
rm -rf "$TMPOUT"; mkdir -p "$TMPOUT"
(cd "$R" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | zstd -q -10 -T1 > "$TMPOUT/initramfs.img")
cp "$WORK"/kimg/boot/vmlinuz-"$ABI" "$TMPOUT/vmlinuz"
echo "$VERSIONS" > "$TMPOUT/versions.txt"
{
  echo "abi $ABI"
  echo "initramfs_bytes $(stat -c %s "$TMPOUT/initramfs.img")"
  echo "root_bytes $(du -sb "$R" | cut -f1)"
  echo "build_seconds $(($(date +%s) - T0))"
  echo "siw_params $(modinfo -F parm "$P/siw.ko" | cut -d: -f1 | tr '\n' ' ')"
} > "$TMPOUT/build-info.txt"
rm -rf "$OUT"; mv "$TMPOUT" "$OUT"
ln -sfn "$KEY" "$CACHE/current"
# images of older package versions are of no further use
for d in "$CACHE"/*; do
  [ -L "$d" ] || [ "$(basename "$d")" = "$KEY" ] || [ ! -e "$d/versions.txt" ] || rm -rf -- "$d"
done
log "built $OUT ($(cat "$OUT/build-info.txt" | tr '\n' ';'))"
echo "$OUT"
