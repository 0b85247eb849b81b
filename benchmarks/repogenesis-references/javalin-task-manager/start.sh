#!/usr/bin/env bash
# Starts the Javalin Task Manager. Build first with: mvn -B -DskipTests test-compile
cd "$(dirname "$0")"
export PORT="${PORT:-7000}"
exec java -cp "target/classes:target/dependency/*" com.example.javalintaskmanager.App
