#!/usr/bin/env bash
# Never returns, never listens, and shrugs off polite signals.
trap '' TERM HUP INT
while :; do :; done
