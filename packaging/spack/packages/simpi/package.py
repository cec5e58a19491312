# SPDX-License-Identifier: BSD-3-Clause
# Spack recipe for simpi: `spack repo add packaging/spack` (a repository of
# this one package), then `spack install simpi` (`+fortran`, `+python` by
# default); `spack load simpi` sets PYTHONPATH and SIMPI.
from spack.package import *


class Simpi(CMakePackage):
    """simpi predicts how long an MPI application takes on a parallel
    machine you do not have, and shows where the time goes: trace replay
    (its own, OTF2, SimGrid, Dimemas, GOAL) and on-line simulation of MPI
    programs built with simpicc."""

    homepage = "https://github.com/simpi/simpi"
    git = "https://github.com/simpi/simpi.git"

    maintainers("simpi")
    license("BSD-3-Clause")

    version("main", branch="main")

    variant("fortran", default=True, description="Build the Fortran mpi and mpi_f08 modules")
    variant("python", default=True, description="Install the Python package (simpi.load...)")

    depends_on("c", type="build")
    depends_on("fortran", type="build", when="+fortran")
    depends_on("cmake@3.16:", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("libyaml")
    depends_on("zlib-api")
    depends_on("zstd")
    depends_on("otf2")
    depends_on("python@3.8:", type="run", when="+python")
    depends_on("py-pandas", type="run", when="+python")
    depends_on("py-matplotlib", type="run", when="+python")

    def cmake_args(self):
        return [
            self.define("CMAKE_INTERPROCEDURAL_OPTIMIZATION", True),
            self.define("SIMPI_PYTHON_DIR", "lib/simpi/python"),
        ]

    def setup_run_environment(self, env):
        if self.spec.satisfies("+python"):
            env.prepend_path("PYTHONPATH", join_path(self.prefix, "lib", "simpi", "python"))
        env.set("SIMPI", join_path(self.prefix.bin, "simpi"))
