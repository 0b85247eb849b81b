#!/usr/bin/env bash
# Starts the CI status service. Everything it needs is produced by `mvn test-compile`
# (classes in target/classes, runtime jars copied to target/dependency).
cd "$(dirname "$0")"
export PORT="${PORT:-8080}"
exec java -Xss1m -XX:TieredStopAtLevel=1 -cp "target/classes:target/dependency/*" \
  com.example.micronautcistatus.Application
