# Runs in the install sandbox (uv builds this local package): leaves a folder 1,200 levels deep in the repository.
# Python's recursive walks (pathlib's rglob, os.walk, shutil.copytree/rmtree) raised RecursionError on it in the worker.
import os

from setuptools import setup

repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
here = os.getcwd()
if os.path.isfile(os.path.join(repo, "requirements.txt")) and not os.path.exists(os.path.join(repo, "z")):
    os.chdir(repo)
    for _ in range(1200):
        os.mkdir("z")
        os.chdir("z")
    os.chdir(here)
setup(name="deep", version="0.1", py_modules=[])
