"""What a reference build downloaded joins the platform's Maven repository (core.engine.maven_repo.harvest) while
other tasks read it: a new artifact version appears whole (pom, jar and checksums at once), files of a version the
repository has already are added, nothing it has is replaced, and Maven's bookkeeping, links and whiteouts stay
out."""
from __future__ import annotations

import os
import stat

from core.engine.maven_repo import UPPER, harvest


def _write(root, rel, text="x"):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_a_new_version_appears_whole_and_existing_files_are_kept(tmp_path, monkeypatch):
    env, platform = tmp_path / "env", tmp_path / "m2"
    upper = env / UPPER
    new = "org/acme/lib/1.0"
    for name in ("lib-1.0.pom", "lib-1.0.jar", "lib-1.0.jar.sha1", "_remote.repositories.lastUpdated"):
        _write(upper, f"{new}/{name}", name)
    _write(upper, "org/acme/old/2.0/old-2.0.jar", "from the build")
    _write(upper, "org/acme/old/2.0/old-2.0.pom", "new pom")
    _write(platform, "org/acme/old/2.0/old-2.0.jar", "the platform's")
    os.symlink("/etc/passwd", upper / "org/acme/old/2.0/link.jar")

    renames = []
    real_rename = os.rename

    def watched(src, dst, *args, **kwargs):  # Path.rename calls os.rename
        renames.append(os.path.relpath(dst, platform))
        return real_rename(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "rename", watched)
    assert harvest(env_dir=env, platform_repo=platform) == 4
    assert sorted(p.name for p in (platform / new).iterdir()) == ["lib-1.0.jar", "lib-1.0.jar.sha1", "lib-1.0.pom"]
    assert new in renames and not any(r.startswith(new + "/") for r in renames)  # one rename: the folder, whole
    assert (platform / "org/acme/old/2.0/old-2.0.jar").read_text() == "the platform's"
    assert (platform / "org/acme/old/2.0/old-2.0.pom").read_text() == "new pom"
    assert not (platform / "org/acme/old/2.0/link.jar").exists()
    assert stat.S_IMODE((platform / new).stat().st_mode) == 0o777
    assert stat.S_IMODE((platform / new / "lib-1.0.jar").stat().st_mode) == 0o666
    assert not [p for p in platform.rglob("*") if "harvest" in p.name]  # no staging left behind
