"""Machine code for the kernels only: a function compiled inside another is kept as LLVM IR.

numba turns every compiled function into machine code of its own: it links the IR of
everything the function calls into it, optimises the whole and generates machine code for it,
even when the function is only ever called from other compiled code. In the engine, where
about 190 functions call each other many levels deep, each level optimised and generated the
code of all the levels below it again: a cold compile of the games kernel spent 41 of its 86
CPU seconds in LLVM's module passes and code generation, of which the kernel's own were 4.5.

Here a function compiled while another one compiles (an inner function: numba compiles a
function's callees while it types it; `jit._Compiling` tracks the depth) keeps its IR only:
its library is finalised without module passes and without machine code, and numba's cache
stores its IR (bitcode) instead of object code. The kernel that calls it links that IR, as it
always did, and optimises and generates the code of the whole once. An inner function called
from Python (a test, a tool) gets its machine code at its first call (`LazyEntry`).

What the code computes does not change: the kernel's final module is the same set of functions
optimised at the kernel's level (integer code, no fast-math), so results are byte-identical.
This relies on numba's internal classes (codegen.JITCodeLibrary, cpu.CPUContext.get_executable,
Dispatcher.add_overload); `install` checks they are what it expects and otherwise leaves numba
as it is (the engine then compiles the usual, slower way).
"""

from numba.core import codegen, cpu, dispatcher

_depth = [0]  # compiles under way (jit._Compiling keeps it)
# Environments (numba's per-function object an exception or a global may need at run time)
# of functions with no machine code yet: set once code holding their global is made.
_pending_envs: dict = {}


def compiling_inner() -> bool:
    return _depth[0] > 1


class LazyEntry:
    """The entry point of an inner function: machine code made at the first call from Python.

    It stands for numba's compiled wrapper as the key under which the function's
    implementation is registered (callers in compiled code link the library, not this)."""

    def __init__(self, context, library, fndesc, env, original):
        self._args = (context, library, fndesc, env)
        self._original = original
        self._cfunc = None
        self.signature_codes = None
        self.owner = None

    def materialize(self):
        if self._cfunc is None:
            context, library, fndesc, env = self._args
            library.generate_code()
            self._cfunc = self._original(context, library, fndesc, env)
            if self.owner is not None:  # later calls from Python go straight to the code
                self.owner._insert(self.signature_codes, self._cfunc, False)
        return self._cfunc

    def __call__(self, *args):
        return self.materialize()(*args)


INSTALLED = False  # set by install(): numba's classes were as expected and are patched


def install() -> bool:
    global INSTALLED
    Library = codegen.JITCodeLibrary
    needed = [(Library, "finalize"), (Library, "_finalize_final_module"), (Library, "get_pointer_to_function"),
              (Library, "serialize_using_object_code"), (Library, "_unserialize"), (Library, "_optimize_final_module"),
              (cpu.CPUContext, "get_executable"), (dispatcher.Dispatcher, "add_overload"),
              (codegen.JITCPUCodegen, "set_env")]
    if not all(hasattr(owner, name) for owner, name in needed) or getattr(Library, "_uno_sim_lazy", False):
        return False
    Library._uno_sim_lazy = True

    original_init = Library.__init__
    original_optimize = Library._optimize_final_module
    original_final = Library._finalize_final_module
    original_pointer = Library.get_pointer_to_function
    original_serialize = Library.serialize_using_object_code
    original_unserialize = Library._unserialize.__func__
    original_executable = cpu.CPUContext.get_executable
    original_add_overload = dispatcher.Dispatcher.add_overload
    original_set_env = codegen.JITCPUCodegen.set_env

    def set_env(self, env_name, env):
        if self._engine.get_global_value_address(env_name):
            original_set_env(self, env_name, env)
        else:  # its global is not in machine code yet
            _pending_envs[env_name] = env

    def _code_made_for(library):
        for env_name, env in list(_pending_envs.items()):
            if library._codegen._engine.get_global_value_address(env_name):
                original_set_env(library._codegen, env_name, env)
                del _pending_envs[env_name]

    def __init__(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        self._ir_only = compiling_inner()
        self._code_made = False

    def _optimize_final_module(self):
        if not self._ir_only:
            original_optimize(self)

    def _finalize_final_module(self):
        if self._ir_only and not self._code_made:
            self._finalized = True  # linkable; machine code waits for generate_code
            return
        self._code_made = True
        original_final(self)
        if _pending_envs:
            _code_made_for(self)

    def generate_code(self):
        if self._ir_only and not self._code_made:
            self._code_made = True
            original_final(self)
            if _pending_envs:
                _code_made_for(self)

    def get_pointer_to_function(self, name):
        self._ensure_finalized()
        self.generate_code()
        return original_pointer(self, name)

    def serialize_using_object_code(self):
        if self._ir_only and not self._code_made:
            return self.serialize_using_bitcode()
        return original_serialize(self)

    def _unserialize(cls, codegen_, state):
        _name, kind, data = state
        if kind != "bitcode":  # object code: loaded as numba loads it, whatever the depth
            depth, _depth[0] = _depth[0], 0
            try:
                return original_unserialize(cls, codegen_, state)
            finally:
                _depth[0] = depth
        import llvmlite.binding as ll

        self = codegen_.create_library(_name)
        self._ir_only = True
        self._final_module = ll.parse_bitcode(data)
        self._finalized = True
        return self

    def get_executable(self, library, fndesc, env):
        if getattr(library, "_ir_only", False) and not library._code_made:
            library.codegen.set_env(self.get_env_name(fndesc), env)
            return LazyEntry(self, library, fndesc, env, original_executable)
        return original_executable(self, library, fndesc, env)

    def add_overload(self, cres):
        entry = cres.entry_point
        if isinstance(entry, LazyEntry):
            entry.owner = self
            entry.signature_codes = [a._code for a in cres.signature.args]
            self.overloads[tuple(cres.signature.args)] = cres
            return
        original_add_overload(self, cres)

    Library.__init__ = __init__
    Library._optimize_final_module = _optimize_final_module
    Library._finalize_final_module = _finalize_final_module
    Library.generate_code = generate_code
    Library.get_pointer_to_function = get_pointer_to_function
    Library.serialize_using_object_code = serialize_using_object_code
    Library._unserialize = classmethod(_unserialize)
    cpu.CPUContext.get_executable = get_executable
    codegen.JITCPUCodegen.set_env = set_env
    dispatcher.Dispatcher.add_overload = add_overload
    INSTALLED = True
    return True
