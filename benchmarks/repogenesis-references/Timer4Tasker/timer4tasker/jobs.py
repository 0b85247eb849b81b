"""Implementations of the three task types. Each job takes the task config and returns a result dict, or
raises JobError (or any exception) when it fails.

Relative paths in a config are resolved against the data directory (env TIMER4TASKER_DATA_DIR, default
./data inside the service folder)."""
import csv
import fnmatch
import json
import os
import shutil
import time
from datetime import datetime, timezone


class JobError(Exception):
    pass


def data_dir():
    return os.environ.get("TIMER4TASKER_DATA_DIR") or os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")


def resolve(path):
    path = os.path.expanduser(str(path))
    return path if os.path.isabs(path) else os.path.join(data_dir(), path)


def resolve_source(source):
    if source is None or str(source).strip() == "":
        raise JobError("config.source is required")
    base = resolve(source)
    for cand in (base, base + ".json", base + ".csv"):
        if os.path.exists(cand):
            return cand
    raise JobError(f"source not found: {source}")


# ---------------------------------------------------------------- file cleanup
def file_cleanup(config):
    path = config.get("path")
    if not path:
        raise JobError("config.path is required")
    directory = resolve(path)
    if not os.path.isdir(directory):
        raise JobError(f"directory not found: {path}")
    pattern = config.get("pattern") or "*"
    days = config.get("days", 7)
    recursive = bool(config.get("recursive", False))
    dry_run = bool(config.get("dry_run", False))
    cutoff = time.time() - float(days) * 86400

    deleted, freed, scanned, errors = [], 0, 0, []
    walker = os.walk(directory) if recursive else [(directory, None, os.listdir(directory))]
    for root, _dirs, files in walker:
        for fname in files:
            full = os.path.join(root, fname)
            if not os.path.isfile(full) or os.path.islink(full):
                continue
            scanned += 1
            if not fnmatch.fnmatch(fname, pattern):
                continue
            try:
                st = os.stat(full)
                if st.st_mtime >= cutoff:
                    continue
                if not dry_run:
                    os.remove(full)
                deleted.append(full)
                freed += st.st_size
            except OSError as e:
                errors.append(f"{full}: {e}")
    return {"path": directory, "pattern": pattern, "days": days, "dry_run": dry_run, "scanned_files": scanned,
            "deleted_files": len(deleted), "freed_bytes": freed, "deleted": deleted[:100], "errors": errors[:100]}


# ---------------------------------------------------------------- data summary
def _num(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            return None
    return None


def _summarise_records(records):
    fields = {}
    for rec in records:
        if not isinstance(rec, dict):
            continue
        for k, v in rec.items():
            n = _num(v)
            if n is None:
                continue
            f = fields.setdefault(k, {"count": 0, "sum": 0.0, "min": n, "max": n})
            f["count"] += 1
            f["sum"] += n
            f["min"] = min(f["min"], n)
            f["max"] = max(f["max"], n)
    for f in fields.values():
        f["avg"] = f["sum"] / f["count"] if f["count"] else None
    return {"records": len(records), "numeric_fields": fields}


def data_summary(config):
    src = resolve_source(config.get("source"))
    if os.path.isdir(src):
        count, size, by_ext = 0, 0, {}
        for root, _d, files in os.walk(src):
            for fname in files:
                full = os.path.join(root, fname)
                try:
                    s = os.path.getsize(full)
                except OSError:
                    continue
                count += 1
                size += s
                ext = os.path.splitext(fname)[1].lower() or "(none)"
                by_ext[ext] = by_ext.get(ext, 0) + 1
        summary = {"kind": "directory", "files": count, "total_bytes": size, "by_extension": by_ext}
    elif src.lower().endswith(".json"):
        with open(src, encoding="utf-8") as fh:
            data = json.load(fh)
        records = data if isinstance(data, list) else [data]
        summary = {"kind": "json", **_summarise_records(records)}
    elif src.lower().endswith(".csv"):
        with open(src, newline="", encoding="utf-8") as fh:
            records = list(csv.DictReader(fh))
        summary = {"kind": "csv", **_summarise_records(records)}
    else:
        lines = words = 0
        with open(src, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                lines += 1
                words += len(line.split())
        summary = {"kind": "text", "lines": lines, "words": words, "bytes": os.path.getsize(src)}
    summary["source"] = src
    summary["generated_at"] = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

    target = config.get("target")
    if target:
        out = resolve(target)
        if not out.lower().endswith(".json"):
            out += ".json"
        os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
        with open(out, "w", encoding="utf-8") as fh:
            json.dump(summary, fh, indent=2)
        summary["written_to"] = out
    return summary


# ---------------------------------------------------------------- data backup
def data_backup(config):
    src = resolve_source(config.get("source"))
    target = config.get("target")
    if not target:
        raise JobError("config.target is required")
    dest_dir = resolve(target)
    os.makedirs(dest_dir, exist_ok=True)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    name = os.path.basename(os.path.normpath(src))
    dest = os.path.join(dest_dir, f"{name}.{stamp}")
    if os.path.isdir(src):
        shutil.copytree(src, dest)
        files = sum(len(f) for _r, _d, f in os.walk(dest))
        size = sum(os.path.getsize(os.path.join(r, x)) for r, _d, fs in os.walk(dest) for x in fs)
    else:
        shutil.copy2(src, dest)
        files, size = 1, os.path.getsize(dest)
    return {"source": src, "backup_path": dest, "files": files, "bytes": size,
            "backup_type": config.get("backup_type", "full")}


JOBS = {"file_cleanup": file_cleanup, "data_summary": data_summary, "data_backup": data_backup}
