"""Trusted harness that runs one untrusted candidate inside CPython-on-WASI.

The host never trusts anything this file returns beyond "the candidate produced this plain
value": expected outputs never enter the sandbox and the host does the comparison. So a
candidate that tampers with this module (frame walking, monkeypatching json or builtins)
can at most make it emit arbitrary JSON, which is no more than it could do by returning a
value, and it cannot know which value would be right.

Wire encoding (both directions, JSON with four reserved single-key objects; implemented
in harness_wire.py):
  None/bool/int/float/str/list/dict-with-str-keys -> the JSON value itself
  tuple                  -> {"$tuple": [...]}
  int outside +-(2**63)  -> {"$int": "<decimal>"}   (JSON parsers lose such ints)
  nan / inf / -inf       -> {"$float": "nan" | "inf" | "-inf"}
  dict with a non-str key -> {"$dict": [[key, value], ...]}   (in insertion order)
Arguments may also use {"$dict": [...]} for str-keyed dicts: JSON objects lose key order
on the host, and a dict's iteration order can change what a function returns.
Only exact built-in types are accepted: subclasses of int/str/list/..., objects with a
custom __eq__, sets, bytes and everything else make the case an error.
"""

import collections
import decimal
import gc
import io
import json
import os
import random
import stat
import sys
import types

import wit_world
from componentize_py_types import Err
from harness_wire import _Unsupported, _decode, _encode

# Captured at snapshot time so later monkeypatching of builtins/json by the candidate does
# not change how this harness decodes arguments or encodes results.
_type = type
_len = len
_str_int = int.__str__
_decoder = json.JSONDecoder()
_NoneType = _type(None)
_list = list
_map = map
_vars = vars

# The guest has no filesystem, so a module can only be imported by a candidate if it is
# already in the build-time snapshot: import the stdlib modules solutions commonly use.
for _name in (
    "abc array base64 binascii bisect calendar cmath collections collections.abc "
    "contextlib copy dataclasses datetime decimal difflib enum fractions functools hashlib "
    "heapq io itertools math numbers operator os pprint random re statistics string struct "
    "textwrap time types typing unicodedata"
    # and what whole programs (competitive programming) import
    " array cmath queue threading"
).split():
    try:
        __import__(_name)
    except ImportError:
        pass

# The candidate's namespace and entry point; one instance serves one candidate.
_entry = None


def _pure_python_lru_cache_wrapper():
    """functools' own pure-Python `_lru_cache_wrapper` (its fallback when the C module
    `_functools` is missing), loaded at snapshot time from a second copy of functools.

    CPython for WASI has a 1 MB C stack, and recursion through the C wrapper of
    `lru_cache`/`cache` uses it: memoised recursion stops before 2000 levels. Python-to-
    Python calls keep their frames on the heap, so with the pure-Python wrapper the same
    recursion goes as deep as plain recursion does (10**6 and more)."""
    import importlib.util

    saved = sys.modules.get("_functools")
    sys.modules["_functools"] = None  # `from _functools import ...` now fails
    try:
        spec = importlib.util.find_spec("functools")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module._lru_cache_wrapper
    except BaseException:
        return None
    finally:
        if saved is None:
            sys.modules.pop("_functools", None)
        else:
            sys.modules["_functools"] = saved


_py_lru_cache_wrapper = _pure_python_lru_cache_wrapper()


def _run_thread_inline(thread):
    # No thread can start in the sandbox. Competitive programs start one only to get a
    # bigger stack (`threading.Thread(target=main).start()`), which the sandbox gives
    # anyway, so the thread's work runs here, to completion, before `start` returns.
    thread.run()


def _join_inline(thread, timeout=None):
    # The thread ran to completion in `start`. (One function, not a lambda per instance:
    # the build-time record of `threading.Thread`'s attributes names this very object.)
    return None


# What a program starts with, as CPython sets it for a program read from stdin with an
# empty environment. `_prepare_program` sets it and the build-time record
# (`_record_for_programs`) expects it (the build ran with other arguments and variables);
# any difference would make every fresh instance record the whole interpreter state
# again, the larger part of its start-up cost.
_PROGRAM_ARGV = [""]
_PROGRAM_ENVIRON = {}


def _prepare_program():
    """Adjustments for whole programs (`prepare-main` only; function calls are unchanged)."""
    import builtins
    import functools
    import threading

    if _py_lru_cache_wrapper is not None:
        functools._lru_cache_wrapper = _py_lru_cache_wrapper
    threading.Thread.start = _run_thread_inline
    threading.Thread.join = _join_inline
    builtins.open = io.open = _program_open
    os.fstat = _program_fstat
    os.read = _program_read
    sys.argv[:] = _PROGRAM_ARGV
    os.environ.clear()
    os.environ.update(_PROGRAM_ENVIRON)


_io_open = io.open


def _program_open(file, mode="r", buffering=-1, encoding=None, errors=None, newline=None,
                  closefd=True, opener=None):
    """`open` for programs: a standard stream's descriptor (0, 1 or 2) stays open when the
    file object is closed or collected, as if `closefd=False`. `open(0).read()` is how
    many programs read their input, and a closed descriptor 0 could not be reopened for
    the next test run in the same instance."""
    if _type(file) is int and 0 <= file <= 2:
        closefd = False
    return _io_open(file, mode, buffering, encoding, errors, newline, closefd, opener)


_os_fstat = os.fstat
_os_read = os.read
_stat_result = os.stat_result
# The length of this run's input (set by `run-compiled`; a list so no rebinding of a
# module global is needed).
_stdin_size = [0]


def _program_fstat(fd):
    """`os.fstat` for programs: descriptor 0 is a regular file as long as the input, as
    under a judge that runs `prog < input` (WASI's stdin is a stream of size 0, and
    `os.read(0, os.fstat(0).st_size)` would read nothing)."""
    st = _os_fstat(fd)
    if _type(fd) is int and fd == 0:
        return _stat_result((stat.S_IFREG | 0o644, st.st_ino, st.st_dev, 1, st.st_uid,
                             st.st_gid, _stdin_size[0], 0, 0, 0))
    return st


def _program_read(fd, n):
    """`os.read` for programs: on descriptor 0 a read returns all it asks for up to the
    end of the input, as a read of a regular file does (a stream may return less)."""
    data = _os_read(fd, n)
    if not (_type(fd) is int and fd == 0) or not data or _len(data) >= n:
        return data
    parts = [data]
    got = _len(data)
    while got < n:
        more = _os_read(fd, n - got)
        if not more:
            break
        parts.append(more)
        got += _len(more)
    return b"".join(parts)


# The interpreter's own standard streams (as CPython made them at start-up): models for
# each run's fresh streams, and put back between runs.
_STD_STREAMS = (sys.stdin, sys.stdout, sys.stderr)


def _fresh_std_streams():
    """New sys.stdin/stdout/stderr (and the `__std*__` twins) over descriptors 0-2, made as
    CPython makes them at start-up, so nothing a previous run left buffered or changed in
    a stream object reaches the next run."""
    streams = []
    for fd, model, mode in zip((0, 1, 2), _STD_STREAMS, ("rb", "wb", "wb")):
        streams.append(io.TextIOWrapper(
            _io_open(fd, mode, -1, None, None, None, False),
            encoding=getattr(model, "encoding", "utf-8"),
            errors=getattr(model, "errors", "strict"), newline="\n",
            line_buffering=getattr(model, "line_buffering", False),
            write_through=getattr(model, "write_through", False)))
    sys.stdin, sys.stdout, sys.stderr = streams
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = streams


# The compiled program and the record of the interpreter state before its first run.
_program = {"code": None, "record": None}


# Types whose instances are mutable containers a module or class may hold.
_CONTAINERS = (list, dict, set, bytearray, collections.deque)
# Py_TPFLAGS_IMMUTABLETYPE: built-in and extension types, whose attributes no program
# can set.
_IMMUTABLE_TYPE = 1 << 8
# What is never compared as module or class state: functions, modules and types are
# compared where they are bound, and their own attributes are not state programs use.
_NOT_INSTANCES = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, type)
# Caches that ordinary use of the stdlib fills (compiled regular expressions, codec
# lookups, source lines of tracebacks): put back as recorded after each run, as a fresh
# instance has them, rather than costing a fresh instance.
_CACHES = (("re", "_cache"), ("re", "_cache2"), ("encodings", "_cache"),
           ("linecache", "cache"))
# The import system's bookkeeping, which changes as the interpreter works (locks made
# and dropped during imports) and is no place for a program's state.
_VOLATILE = (("importlib._bootstrap", "_module_locks"), ("importlib._bootstrap", "_blocking_on"))


def _shallow(v):
    """A copy of a container at one level (what an in-place change shows against)."""
    return _type(v).copy(v)


def _walk_state(namespaces, skip):
    """The state beyond module namespaces that a program can change in place: the
    attributes of every class a module binds (a class attribute of a stdlib type), the
    containers modules and classes bind (`heapq.__all__.append`, `os.supports_fd.add`),
    and the attributes of the other objects modules bind. The harness's own module is
    not walked: its containers change with every run by design; nor are the objects in
    `skip`, which the record holds otherwise."""
    classes, values = [], []
    seen = set(skip)
    own = globals()

    def container(v):
        t = _type(v)
        if issubclass(t, _CONTAINERS) and id(v) not in seen:
            seen.add(id(v))
            try:
                values.append((v, _shallow(v)))
            except BaseException:
                pass

    for d, _ in namespaces:
        if d is own:
            continue
        for v in list(d.values()):
            t = _type(v)
            if issubclass(t, type):
                if v.__flags__ & _IMMUTABLE_TYPE or id(v) in seen:
                    continue
                seen.add(id(v))
                attrs = dict(v.__dict__)
                classes.append((v, attrs))
                for x in attrs.values():
                    container(x)
            elif issubclass(t, _CONTAINERS):
                container(v)
            elif not issubclass(t, _NOT_INSTANCES) and id(v) not in seen:
                try:
                    attrs = object.__getattribute__(v, "__dict__")
                except BaseException:
                    continue
                if _type(attrs) is dict:
                    seen.add(id(v))
                    values.append((attrs, attrs.copy()))
    return classes, values


def _record_state():
    """What `reset-main` compares after each run: every module's namespace (by identity of
    the values: a rebound function or constant shows), sys.modules, the containers of sys
    and os that a program can fill, and what `_walk_state` finds (classes, containers and
    objects modules bind); plus the state it puts back instead."""
    namespaces = []
    for module in sys.modules.values():
        d = getattr(module, "__dict__", None)
        if _type(d) is dict:
            namespaces.append((d, d.copy()))
    caches = []
    for name, attr in _CACHES:
        cache = getattr(sys.modules.get(name), attr, None)
        if issubclass(_type(cache), _CONTAINERS):
            caches.append((cache, _shallow(cache)))
    containers = [sys.modules, sys.path, sys.argv, sys.meta_path, sys.path_hooks,
                  sys.warnoptions, os.environ._data]
    warnings = sys.modules.get("warnings")
    if warnings is not None:
        containers.append(warnings.filters)
    # Caches, module namespaces (a module's `__builtins__` is one) and the containers
    # compared on their own (with the program adjustments of `_record_for_programs`) are
    # not walked again.
    volatile = [getattr(sys.modules.get(name), attr, None) for name, attr in _VOLATILE]
    classes, values = _walk_state(namespaces, [id(v) for v in volatile if v is not None] +
                                  [id(c) for c, _ in caches] +
                                  [id(c) for c in containers] +
                                  [id(d) for d, _ in namespaces])
    # Held as parallel lists, so the check is one comparison of two lists, each pair
    # compared in C (a loop in Python cost more than the comparisons themselves).
    return {
        "namespaces": namespaces,
        "classes": [c for c, _ in classes],
        "class_attrs": [a for _, a in classes],
        "values": [v for v, _ in values],
        "value_copies": [c for _, c in values],
        "caches": caches,
        "containers": [(c, c.copy()) for c in containers],
        "recursion_limit": sys.getrecursionlimit(),
        "int_max_str_digits": sys.get_int_max_str_digits(),
        "gc_enabled": gc.isenabled(),
        "gc_threshold": gc.get_threshold(),
        "random": random._inst.getstate(),
        "decimal": decimal.getcontext().copy(),
    }


def _record_for_programs():
    """The record as `_prepare_program` leaves the interpreter, taken at build time (so it
    is in the snapshot, and preparing an instance costs only a comparison)."""
    import builtins
    import functools

    r = _record_state()
    for i, (current, _) in enumerate(r["containers"]):
        if current is sys.argv:
            r["containers"][i] = (current, list(_PROGRAM_ARGV))
        elif current is os.environ._data:
            r["containers"][i] = (current, {os.environ.encodekey(k): os.environ.encodevalue(v)
                                           for k, v in _PROGRAM_ENVIRON.items()})
    for d, recorded in r["namespaces"]:
        if d is vars(builtins) or d is vars(io):
            recorded["open"] = _program_open
        if d is vars(os):
            recorded["fstat"] = _program_fstat
            recorded["read"] = _program_read
        if d is vars(functools) and _py_lru_cache_wrapper is not None:
            recorded["_lru_cache_wrapper"] = _py_lru_cache_wrapper
    threading = sys.modules.get("threading")
    for cls, recorded in zip(r["classes"], r["class_attrs"]):
        if threading is not None and cls is threading.Thread:
            recorded["start"] = _run_thread_inline
            recorded["join"] = _join_inline
    return r


def _restore_and_check(r):
    """Puts back the state programs commonly change, then says whether the rest of the
    record `r` is unchanged (standard streams, fds 0-2, trace and profile hooks included)."""
    sys.stdin, sys.stdout, sys.stderr = _STD_STREAMS
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = _STD_STREAMS
    sys.setrecursionlimit(r["recursion_limit"])
    sys.set_int_max_str_digits(r["int_max_str_digits"])
    if r["gc_enabled"]:
        gc.enable()
    else:
        gc.disable()
    gc.set_threshold(*r["gc_threshold"])
    random._inst.setstate(r["random"])
    decimal.setcontext(r["decimal"].copy())
    for cache, recorded in r["caches"]:
        if cache != recorded:
            cache.clear()
            cache.update(recorded)
    # The young garbage of the run (its globals and functions form cycles) goes now, so
    # that its finalizers run here, where their output is discarded, not in the next run.
    gc.collect(0)
    if sys.gettrace() is not None or sys.getprofile() is not None:
        return False
    for fd in (0, 1, 2):
        os.fstat(fd)  # raises for a descriptor the program closed
    for current, recorded in r["containers"]:
        if current != recorded:
            return False
    for current, recorded in r["namespaces"]:
        if current != recorded:
            return False
    return (_list(_map(_vars, r["classes"])) == r["class_attrs"]
            and r["values"] == r["value_copies"])


def _describe(e):
    """Exception text without trusting the candidate's __str__ to terminate sanely."""
    name = "Exception"
    try:
        name = _type(e).__name__
        return "%s: %s" % (name, e)
    except BaseException:
        return name


def _describe_code(code):
    try:
        return _str_int(code) if _type(code) is int else repr(code)[:200]
    except BaseException:
        return "?"


def _flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            pass


def _exit_as_cpython(namespace):
    """The end of a program as CPython's finalization does it: sys.stdout and sys.stderr
    are flushed first (and the original streams, which `sys.__stdout__` names), then the
    program's globals go, so that a writer only they hold (`open(1, "w")`,
    `io.BufferedWriter(io.FileIO(1, "w"))`) flushes as it is finalized."""
    _flush()
    for stream in (sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except BaseException:
            pass
    try:
        namespace.clear()
        gc.collect()
    except BaseException:
        pass


class WitWorld(wit_world.WitWorld):
    def load(self, src: str, entry: str) -> None:
        global _entry
        try:
            code = compile(src, "<candidate>", "exec")
        except BaseException as e:
            raise Err(wit_world.LoadError_Syntax(_describe(e)))
        namespace = {"__name__": "__candidate__", "__builtins__": __builtins__}
        try:
            exec(code, namespace)
        except BaseException as e:  # SystemExit included: exiting is not passing
            _flush()
            raise Err(wit_world.LoadError_Raised(_describe(e)))
        _flush()
        fn = namespace.get(entry)
        if fn is None or not callable(fn):
            raise Err(wit_world.LoadError_MissingEntry("entry point %r is not defined" % entry))
        _entry = fn

    def prepare_main(self) -> bool:
        _prepare_program()
        try:
            # The build-time record holds unless something changed since the snapshot.
            if _program["record"] is not None and _restore_and_check(_program["record"]):
                return True
            _program["record"] = _record_state()
        except BaseException:
            _program["record"] = None  # then no run is followed by another here
        return False

    def compile_main(self, src: str) -> None:
        try:
            _program["code"] = compile(src, "<program>", "exec")
        except BaseException as e:
            raise Err(wit_world.LoadError_Syntax(_describe(e)))

    def run_compiled(self, input_size: int) -> None:
        code = _program["code"]
        _stdin_size[0] = input_size
        if code is None:
            raise Err(wit_world.LoadError_Raised("harness: no program compiled"))
        try:
            _fresh_std_streams()
        except BaseException as e:
            raise Err(wit_world.LoadError_Raised("harness: standard streams: " + _describe(e)))
        namespace = {"__name__": "__main__", "__builtins__": __builtins__}
        try:
            exec(code, namespace)
        except SystemExit as e:
            # As CPython's exit status: None and 0 are success, an int is that status,
            # anything else is printed to stderr and is status 1.
            status = e.code
            if status is not None and not (_type(status) is int and status == 0):
                _flush()
                raise Err(wit_world.LoadError_Raised("SystemExit: %s" % _describe_code(status)))
        except BaseException as e:
            _flush()
            raise Err(wit_world.LoadError_Raised(_describe(e)))
        # A failed flush (the output cap) is the host's to classify: it sees the full pipe.
        _exit_as_cpython(namespace)

    def reset_main(self) -> bool:
        if _program["record"] is None:
            return False
        try:
            return _restore_and_check(_program["record"])
        except BaseException:
            return False

    def call(self, args: str) -> str:
        try:
            decoded = _decode(_decoder.decode(args))
        except BaseException as e:
            raise Err("harness: bad arguments: " + _describe(e))
        if _type(decoded) is not list:
            raise Err("harness: arguments must be a JSON array")
        if _entry is None:
            raise Err("harness: no candidate loaded")
        try:
            result = _entry(*decoded)
        except BaseException as e:  # SystemExit included
            _flush()
            raise Err(_describe(e))
        _flush()
        out = []
        try:
            _encode(result, out, 0)
        except _Unsupported as e:
            raise Err("TypeError: " + str(e))
        except BaseException as e:
            raise Err(_describe(e))
        return "".join(out)


sys.set_int_max_str_digits(0)

try:
    _program["record"] = _record_for_programs()
except BaseException:
    pass  # prepare-main records at run time instead

# Every object built so far is in the snapshot, which each instance maps copy-on-write:
# a collection that walks them (as the reset's young-generation collection did, for the
# snapshot's own young objects) writes to their headers and copies page after page.
# Frozen, the collector never looks at them again; a program's own garbage is collected
# as before. (What `gc.get_freeze_count()` or `gc.get_objects()` report is not part of the
# state a reused instance must share with a fresh one: frozen objects a run frees leave
# the count, and every run leaves garbage behind until the next collection.)
gc.collect()
gc.freeze()
