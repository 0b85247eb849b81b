#!/usr/bin/env bash
# Starts the chat gateway (built beforehand by `mvn -DskipTests test-compile`).
cd "$(dirname "$0")"
PORT="${PORT:-8080}"
exec java -cp "target/classes:target/dependency/*" com.example.chatgateway.ChatGatewayApplication --server.port="$PORT" --server.address=0.0.0.0
