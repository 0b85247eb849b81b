#!/usr/bin/env bash
# Runs the Quarkus application built by `mvn test-compile` (the build goal is bound to process-classes).
cd "$(dirname "$0")"
export PORT="${PORT:-8080}"
exec java -Dquarkus.http.port="$PORT" -Dquarkus.http.host=0.0.0.0 -jar target/quarkus-app/quarkus-run.jar
