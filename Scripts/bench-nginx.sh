#!/usr/bin/env bash
# Serves what the benchmark asks an out-of-process server for, with nginx on 127.0.0.1:$PORT
# (8089 by default): `json`, a small JSON, and `bytes`, 1 MiB. Runs until stopped (Ctrl-C).
#   Scripts/bench-nginx.sh &
#   swift run -c release --package-path Benchmarks Bench latency --server http://127.0.0.1:8089
set -euo pipefail
port=${PORT:-8089}
command -v nginx >/dev/null || { echo "needs nginx: apt-get install -y nginx" >&2; exit 1; }
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/www" "$root/tmp"
chmod 755 "$root" "$root/www"   # nginx's workers read as another user
# The same small JSON as the in-process server's.
printf '%s' '{"id":1,"title":"Dune","author":"Frank Herbert","year":1965,"tags":["sf","classic","desert"],"rating":4.25,"available":true,"isbn":"978-0441013593","publisher":"Chilton Books"}' > "$root/www/json"
head -c 1048576 /dev/urandom > "$root/www/bytes"
cat > "$root/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $root/nginx.pid;
error_log stderr error;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    keepalive_requests 1000000;
    keepalive_timeout 120s;
    client_body_temp_path $root/tmp;
    proxy_temp_path $root/tmp;
    fastcgi_temp_path $root/tmp;
    uwsgi_temp_path $root/tmp;
    scgi_temp_path $root/tmp;
    types { application/json json; }
    default_type application/octet-stream;
    server {
        listen 127.0.0.1:$port;
        root $root/www;
        location = /json { default_type application/json; }
    }
}
CONF
echo "nginx serving $root/www on http://127.0.0.1:$port"
nginx -c "$root/nginx.conf" -p "$root"
