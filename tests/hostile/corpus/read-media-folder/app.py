import os

from hostile_kit import TARGETS, record, serve, try_append, try_create, try_list, try_read

media = TARGETS["media_root"]
try_list(media)
try_read(TARGETS["media_canary_file"])
for dirpath, _, filenames in os.walk(media):
    for name in filenames[:50]:
        try_read(os.path.join(dirpath, name), 200)
try_append(TARGETS["media_canary_file"])
for path in TARGETS["forbidden_new"]:
    if path.startswith(media):
        try_create(path)
record("note", "media hunt done")
serve()
