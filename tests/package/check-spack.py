# SPDX-License-Identifier: BSD-3-Clause
"""The Spack recipe (packaging/spack/packages/simpi/package.py) read with a stand-in
for Spack's API (Spack itself is not a Debian package): it must define a
CMakePackage named Simpi, depend on what CMakeLists.txt finds (libyaml,
zstd, zlib, otf2, cmake, pkgconfig), and pass the Python package's folder.
Usage: python3 check-spack.py SOURCE_DIR"""
import os
import sys
import types

calls = {"depends_on": [], "variant": [], "version": []}


def record(name):
    def f(*args, **kw):
        calls[name].append((args, kw))
    return f


class CMakePackage:
    def define(self, key, value):
        return "-D%s=%s" % (key, "ON" if value is True else value)


api = types.ModuleType("spack.package")
api.CMakePackage = CMakePackage
api.depends_on, api.variant, api.version = (record(n) for n in ("depends_on", "variant", "version"))
api.maintainers = api.license = lambda *a, **k: None
api.join_path = os.path.join
sys.modules["spack"] = types.ModuleType("spack")
sys.modules["spack.package"] = api

path = os.path.join(sys.argv[1], "packaging", "spack", "packages", "simpi", "package.py")
check_repo = open(os.path.join(sys.argv[1], "packaging", "spack", "repo.yaml")).read()
scope = {}
exec(compile(open(path).read(), path, "exec"), scope)
fails = 0


def check(cond, what):
    global fails
    print(("ok   " if cond else "FAIL ") + what)
    fails += not cond


check("namespace: simpi" in check_repo, "repo.yaml names the repository")
check("Simpi" in scope and issubclass(scope["Simpi"], CMakePackage), "a CMakePackage Simpi")
deps = [a[0] for a, _ in calls["depends_on"]]
for d in ("libyaml", "zstd", "zlib-api", "otf2", "pkgconfig"):
    check(d in deps, "depends on %s" % d)
check(any(d.startswith("cmake@3.16") for d in deps), "cmake 3.16 or later, as CMakeLists.txt says")
cmake = open(os.path.join(sys.argv[1], "CMakeLists.txt")).read()
check("cmake_minimum_required(VERSION 3.16)" in cmake, "CMakeLists.txt asks for 3.16")
args = scope["Simpi"].cmake_args(scope["Simpi"]())
check("-DSIMPI_PYTHON_DIR=lib/simpi/python" in args, "the Python package's folder: %s" % args)
print("spack: %s" % ("all checks passed" if not fails else "%d failed" % fails))
sys.exit(1 if fails else 0)
