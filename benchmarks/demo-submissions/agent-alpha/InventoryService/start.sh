#!/bin/bash
# Start the inventory service (expects the project to be compiled already)
if [ ! -d target/classes ]; then
  mvn -q -o -DskipTests test-compile
fi
java -cp "target/classes:target/dependency/*" com.example.inventory.Main
