import os

from hostile_kit import ROOT, record, serve, try_append, try_create, try_list, try_read

links = ROOT / "links"
for entry in sorted(links.iterdir()):
    record("note", f"link {entry.name}", os.readlink(entry))
    if entry.is_dir():
        names = try_list(entry) or []
        for name in names[:30]:
            if (entry / name).is_file():
                try_read(entry / name, 2000)
    else:
        try_read(entry, 2000)
for dirpath, _, filenames in os.walk(links / "hidden_tests", followlinks=True):
    for name in filenames:
        try_read(os.path.join(dirpath, name), 2000)
try_append(links / "canary_file")
try_create(links / "canary_dir" / "pwned")
try_create(links / "work_root" / "pwned")
try_list(links / "up_to_root")
record("note", "followed the links", len(list(links.iterdir())))
serve()
