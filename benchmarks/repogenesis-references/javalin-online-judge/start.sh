#!/usr/bin/env bash
# Starts the Javalin Online Judge. Build first with: mvn -B -DskipTests test-compile
cd "$(dirname "$0")"
export PORT="${PORT:-7000}"
exec java -cp "target/classes:target/dependency/*" com.example.oj.App
