#!/usr/bin/env bash
# Starts the Spark Dashboard Backend. Build first with: mvn -B -DskipTests test-compile
cd "$(dirname "$0")"
export PORT="${PORT:-4567}"
exec java -cp "target/classes:target/dependency/*" com.example.sparkdashboard.App
