#!/usr/bin/env bash
# (Re)build the docker sandbox images, offline and idempotently (unchanged inputs hit the build cache):
#   repogenesis/sandbox-base:$TAG    FROM scratch + a tiny root filesystem made here (no registry, no pull)
#   repogenesis/sandbox-python:$TAG  FROM base (docker/python/Dockerfile)
#   repogenesis/sandbox-java:$TAG    FROM base (docker/java/Dockerfile)
# The toolchains are the host's: the docker backend bind-mounts /usr read-only (see base/Dockerfile).
# TAG must match core/sandbox/docker_backend.py IMAGE_TAG. Needs a reachable dockerd.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
TAG="${TAG:-1}"
SLOTS="${SLOTS:-64}"          # sandbox user pairs: rgd-s<N> = 20000+2N, rgd-r<N> = 20001+2N
export DOCKER_BUILDKIT=0      # the classic builder: no buildx plugin needed, FROM a local tag never pulls

if ! docker info >/dev/null 2>&1; then
    echo "build-images.sh: dockerd is not reachable (start it: dockerd --iptables=false --ip-forward=false --bridge=none &)" >&2
    exit 1
fi

ctx="$(mktemp -d)"
trap 'rm -rf "$ctx"' EXIT
root="$ctx/root"
mkdir -p "$root"/{usr,etc,tmp,home/sandbox,proc,sys,dev}
chmod 1777 "$root/tmp"
chmod 0777 "$root/home/sandbox"
for link in bin lib lib64 sbin; do ln -s "usr/$link" "$root/$link"; done
{
    echo "root:x:0:0:root:/root:/usr/sbin/nologin"
    echo "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin"
    for ((n = 0; n < SLOTS; n++)); do
        echo "rgd-s$n:x:$((20000 + 2 * n)):$((20000 + 2 * n))::/home/sandbox:/usr/sbin/nologin"
        echo "rgd-r$n:x:$((20001 + 2 * n)):$((20001 + 2 * n))::/home/sandbox:/usr/sbin/nologin"
    done
} >"$root/etc/passwd"
{
    echo "root:x:0:"
    echo "nogroup:x:65534:"
    for ((n = 0; n < SLOTS; n++)); do
        echo "rgd-s$n:x:$((20000 + 2 * n)):"
        echo "rgd-r$n:x:$((20001 + 2 * n)):"
    done
} >"$root/etc/group"
printf 'passwd: files\ngroup: files\nhosts: files dns\nnetworks: files\n' >"$root/etc/nsswitch.conf"
# A reproducible archive (fixed times, owners and order), so an unchanged skeleton is a build-cache hit.
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$root" -cf "$ctx/rootfs.tar" .
cp "$here/base/Dockerfile" "$ctx/Dockerfile"

java_home="/usr/lib/jvm/java-17-openjdk-amd64"
if command -v javac >/dev/null 2>&1; then
    java_home="$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")"
fi

build() {  # build <tag> <context> [docker build args...]
    local tag="$1" context="$2"
    shift 2
    local out
    if ! out="$(docker build --quiet --network none --label "repogenesis.image-tag=$TAG" -t "$tag" "$@" "$context" 2>&1)"; then
        echo "build-images.sh: building $tag failed:" >&2
        echo "$out" >&2
        exit 1
    fi
    echo "built $tag ($(docker image inspect --format '{{.Id}}' "$tag" | cut -c8-19))"
}
build "repogenesis/sandbox-base:$TAG" "$ctx"
build "repogenesis/sandbox-python:$TAG" "$here/python" --build-arg "BASE=repogenesis/sandbox-base:$TAG"
build "repogenesis/sandbox-java:$TAG" "$here/java" --build-arg "BASE=repogenesis/sandbox-base:$TAG" \
    --build-arg "JAVA_HOME=$java_home"
# Older builds of these images that lost their tag.
docker image prune --force --filter "label=repogenesis.image-tag" >/dev/null
