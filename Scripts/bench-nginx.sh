#!/usr/bin/env bash
# Serves what the benchmark asks an out-of-process server for, with nginx on 127.0.0.1:$PORT
# (8089 by default): `json`, a small JSON, and `bytes`, 1 MiB. Runs until stopped (Ctrl-C).
# The same over TLS, with a certificate from an authority made here: HTTP/2 (and HTTP/1.1) on
# 8443, HTTP/1.1 alone on 8444. TRUST=1 (as root) adds that authority to the system's trust
# store, which URLSessionClient on Linux needs (and removes it on exit).
#   Scripts/bench-nginx.sh &
#   swift run -c release --package-path Benchmarks Bench latency --server http://127.0.0.1:8089
#   TRUST=1 Scripts/bench-nginx.sh &
#   swift run -c release --package-path Benchmarks Bench http2 https://localhost:8443 https://localhost:8444
set -euo pipefail
port=${PORT:-8089}
command -v nginx >/dev/null || { echo "needs nginx: apt-get install -y nginx" >&2; exit 1; }
command -v openssl >/dev/null || { echo "needs openssl: apt-get install -y openssl" >&2; exit 1; }
root=$(mktemp -d)
anchor=/usr/local/share/ca-certificates/endpointkit-bench.crt
cleanup() {
  rm -rf "$root"
  if [ "${TRUST:-0}" = 1 ]; then rm -f "$anchor"; update-ca-certificates --fresh >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
mkdir -p "$root/www" "$root/tmp"
# An authority and a certificate for localhost and 127.0.0.1, for this run only.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=EndpointKit bench CA" \
  -keyout "$root/ca.key" -out "$root/ca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=localhost" \
  -keyout "$root/server.key" -out "$root/server.csr" 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' > "$root/ext.cnf"
openssl x509 -req -in "$root/server.csr" -CA "$root/ca.pem" -CAkey "$root/ca.key" -CAcreateserial -days 2 \
  -extfile "$root/ext.cnf" -out "$root/server.pem" 2>/dev/null
if [ "${TRUST:-0}" = 1 ]; then cp "$root/ca.pem" "$anchor"; update-ca-certificates >/dev/null; fi
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
    server {
        listen 127.0.0.1:8443 ssl http2;
        ssl_certificate $root/server.pem;
        ssl_certificate_key $root/server.key;
        http2_max_concurrent_streams 1024;
        root $root/www;
        location = /json { default_type application/json; }
    }
    server {
        listen 127.0.0.1:8444 ssl;
        ssl_certificate $root/server.pem;
        ssl_certificate_key $root/server.key;
        root $root/www;
        location = /json { default_type application/json; }
    }
}
CONF
echo "nginx serving $root/www on http://127.0.0.1:$port, https://localhost:8443 (h2) and :8444 (HTTP/1.1); authority $root/ca.pem"
nginx -c "$root/nginx.conf" -p "$root"
