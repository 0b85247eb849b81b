#!/usr/bin/env bash
set -e
cd "$(dirname "$0")"
[ -d target/classes ] || mvn -B -o -q -DskipTests test-compile
exec java -cp "target/classes:target/dependency/*" com.example.inventory.App
