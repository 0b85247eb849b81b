#!/usr/bin/env bash
# Starts the Javalin User Authentication Platform. Build first with: mvn -B -DskipTests test-compile
cd "$(dirname "$0")"
export PORT="${PORT:-7070}"
exec java -cp "target/classes:target/dependency/*" com.example.auth.Main
