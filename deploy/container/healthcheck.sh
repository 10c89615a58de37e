#!/bin/bash
# The image's HEALTHCHECK: GET /readyz on this container's own listener must answer 200. Plain bash
# (/dev/tcp), so the runtime image needs no HTTP client. The port is STOREFRONT_PORT (default 8080), as the
# server reads it.
exec 3<>"/dev/tcp/127.0.0.1/${STOREFRONT_PORT:-8080}" || exit 1
printf 'GET /readyz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n' >&3
read -r -t 3 _ status _ <&3 || exit 1
[ "$status" = 200 ]
