# lit configuration for popc: each test is a codelet with RUN lines checked by FileCheck.
import os

import lit.formats

config.name = "popc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp"]
config.test_source_root = os.path.join(os.path.dirname(__file__), "lit")
# Output/ directories go to the build tree, never next to the sources.
config.test_exec_root = lit_config.params.get("exec_root", "/tmp/popc-lit")

popc = lit_config.params.get("popc")
if not popc:
    lit_config.fatal("run with --param popc=<path to the popc executable>")
llvm_bin = lit_config.params.get("llvm_bin", "/usr/lib/llvm-14/bin")
config.substitutions.append(("popc", popc))
config.environment["PATH"] = os.pathsep.join([llvm_bin, config.environment.get("PATH", "")])
