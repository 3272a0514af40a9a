#!/usr/bin/env bash
# The real site the crawl benchmarks read: Debian's OpenJDK 17 API documentation (openjdk-17-doc,
# about 10,000 pages; /java.base/ is 2,843 of them), served by nginx on http://127.0.0.1:8081/,
# and an editable copy of it (hard links where the file system allows) on the next port, for the
# incremental crawl benchmark, which edits pages between crawls.
# Installs the two packages when they are missing (needs root), then starts nginx in the
# background with its files under /tmp/canopy-javadoc. `serve-javadoc.sh stop` stops it.
set -euo pipefail
ROOT=/usr/share/doc/openjdk-17-doc/api
STATE=/tmp/canopy-javadoc
PORT="${CANOPY_JAVADOC_PORT:-8081}"
EDITABLE_PORT=$((PORT + 1))

if [[ "${1:-}" == stop ]]; then
  [[ -s "$STATE/nginx.pid" ]] && kill "$(cat "$STATE/nginx.pid")" && echo "stopped"
  exit 0
fi

needed=()
command -v nginx >/dev/null || needed+=(nginx-light)
[[ -d "$ROOT" ]] || needed+=(openjdk-17-doc)
if ((${#needed[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  # Debian starts an installed nginx on port 80; this machine needs none there.
  blocker=/usr/sbin/policy-rc.d
  [[ -e $blocker ]] || { printf '#!/bin/sh\nexit 101\n' > $blocker; chmod +x $blocker; trap 'rm -f $blocker' EXIT; }
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${needed[@]}"
fi

mkdir -p "$STATE"
if [[ ! -d "$STATE/mutable/java.base" ]]; then
  rm -rf "$STATE/mutable"
  source=$(readlink -f "$ROOT")
  cp -al "$source" "$STATE/mutable" 2>/dev/null || { rm -rf "$STATE/mutable"; cp -r "$source" "$STATE/mutable"; }
fi
if [[ -s "$STATE/nginx.pid" ]] && kill -0 "$(cat "$STATE/nginx.pid")" 2>/dev/null; then
  echo "already serving http://127.0.0.1:$PORT/"
  exit 0
fi
cat > "$STATE/nginx.conf" <<CONF
worker_processes 1;
pid $STATE/nginx.pid;
error_log $STATE/error.log;
events { worker_connections 256; }
http {
  types { text/html html; text/css css; application/javascript js; image/png png; image/svg+xml svg; }
  access_log off;
  sendfile on;
  server {
    listen 127.0.0.1:$PORT;
    root $ROOT;
    client_body_temp_path $STATE/body;
    proxy_temp_path $STATE/proxy;
    fastcgi_temp_path $STATE/fastcgi;
    uwsgi_temp_path $STATE/uwsgi;
    scgi_temp_path $STATE/scgi;
  }
  server {
    listen 127.0.0.1:$EDITABLE_PORT;
    root $STATE/mutable;
  }
}
CONF
nginx -c "$STATE/nginx.conf" -p "$STATE/"
for _ in $(seq 50); do [[ -s "$STATE/nginx.pid" ]] && break; sleep 0.1; done
echo "serving $ROOT on http://127.0.0.1:$PORT/ and an editable copy on http://127.0.0.1:$EDITABLE_PORT/"
