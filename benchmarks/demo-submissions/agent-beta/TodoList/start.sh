#!/bin/sh
# start the todo api
python server.py
