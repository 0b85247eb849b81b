#!/usr/bin/env bash
# Build the site image repogenesis/site:$TAG (docker/site/Dockerfile) from Debian's packages, with nothing pulled
# from a registry: the base image repogenesis/debian:$SUITE is a minimal Debian root filesystem made here with
# debootstrap (from Debian's default mirror, or DEBIAN_MIRROR) and loaded with `docker import`; it is made once and
# reused. The build reaches Debian's packages and PyPI through the host's network (--network host).
# Also builds compose.yaml's repogenesis/postgres:15 and repogenesis/redis:7 the same way (SERVICES=0: not).
#   TAG=latest  SUITE=bookworm  WITH_JAVA=1 (0: no JDK/Maven, for web-only hosts)  DEBIAN_MIRROR=<url>
# Needs a reachable dockerd and, for the base image, root (debootstrap; installed here when missing).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
TAG="${TAG:-latest}"
SUITE="${SUITE:-bookworm}"
BASE="repogenesis/debian:$SUITE"
export DOCKER_BUILDKIT=0  # the classic builder: FROM a local tag never pulls

if ! docker info >/dev/null 2>&1; then
  echo "docker/site/build.sh: dockerd is not reachable (start it: dockerd --iptables=false --ip-forward=false --bridge=none &)" >&2
  exit 1
fi
if ! docker image inspect "$BASE" >/dev/null 2>&1; then
  command -v debootstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null; }
  rootfs="$(mktemp -d)"
  trap 'rm -rf "$rootfs"' EXIT
  echo "making $BASE with debootstrap (a few minutes, once)"
  debootstrap --variant=minbase --include=ca-certificates "$SUITE" "$rootfs" ${DEBIAN_MIRROR:+"$DEBIAN_MIRROR"} \
    >"$rootfs.log" 2>&1 || { tail -20 "$rootfs.log" >&2; exit 1; }
  # The host's locally added certificate authorities (EXTRA_CA_CERTS, default the host's
  # /usr/local/share/ca-certificates): a TLS-inspecting egress proxy then works inside the build as on the host.
  extra="${EXTRA_CA_CERTS:-/usr/local/share/ca-certificates}"
  if compgen -G "$extra/*.crt" >/dev/null; then
    cp "$extra"/*.crt "$rootfs/usr/local/share/ca-certificates/"
    chroot "$rootfs" update-ca-certificates >/dev/null 2>&1
  fi
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  tar -C "$rootfs" --numeric-owner -c . | docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8' \
    --change 'CMD ["/bin/bash"]' - "$BASE" >/dev/null
  rm -f "$rootfs.log"
fi
build() {  # build <tag> <context> [docker build args...]
  local tag="$1" context="$2" out
  shift 2
  if ! out="$(docker build --quiet --network host --build-arg "BASE=$BASE" -t "$tag" "$@" "$context" 2>&1)"; then
    echo "docker/site/build.sh: building $tag failed:" >&2
    echo "$out" | tail -40 >&2
    exit 1
  fi
  echo "built $tag ($(docker image inspect --format '{{.Id}}' "$tag" | cut -c8-19))"
}
build "repogenesis/site:$TAG" "$root" -f "$root/docker/site/Dockerfile" --build-arg "WITH_JAVA=${WITH_JAVA:-1}"
if [ "${SERVICES:-1}" = 1 ]; then  # compose.yaml's postgres and redis
  build repogenesis/postgres:15 "$root/docker/postgres"
  build repogenesis/redis:7 "$root/docker/redis"
fi
