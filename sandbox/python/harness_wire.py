"""The harness's wire encoding (see app.py's docstring): JSON arguments decoded to plain
values, and a returned value encoded back, accepting only exact built-in types.

Kept apart from app.py, whose snapshot it shares: the encoder's built-ins are captured
at build time here too, so a candidate's monkeypatching cannot change them."""

import json

_type = type
_len = len
_repr_float = float.__repr__
_str_int = int.__str__
_encode_str = json.encoder.encode_basestring_ascii
_MAX_DEPTH = 100  # stays under serde_json's recursion limit (128) on the host
_BIG = 1 << 63
_RESERVED = ("$tuple", "$int", "$float", "$dict")


class _Unsupported(Exception):
    pass


def _decode(v):
    t = _type(v)
    if t is list:
        return [_decode(x) for x in v]
    if t is dict:
        if _len(v) == 1:
            (k, x), = v.items()
            if k == "$tuple":
                return tuple(_decode(y) for y in x)
            if k == "$int":
                return int(x)
            if k == "$float":
                return float(x)
            if k == "$dict":
                return {_decode(kv[0]): _decode(kv[1]) for kv in x}
        return {k: _decode(x) for k, x in v.items()}
    return v


def _encode(v, out, depth):
    if depth > _MAX_DEPTH:
        raise _Unsupported("value nested deeper than %d" % _MAX_DEPTH)
    t = _type(v)
    if v is None:
        out.append("null")
    elif t is bool:
        out.append("true" if v else "false")
    elif t is int:
        if -_BIG <= v < _BIG:
            out.append(_str_int(v))
        else:
            out.append('{"$int":"%s"}' % _str_int(v))
    elif t is float:
        if v != v:
            out.append('{"$float":"nan"}')
        elif v in (float("inf"), float("-inf")):
            out.append('{"$float":"%s"}' % ("inf" if v > 0 else "-inf"))
        else:
            out.append(_repr_float(v))
    elif t is str:
        out.append(_encode_str(v))
    elif t is list or t is tuple:
        if t is tuple:
            out.append('{"$tuple":')
        out.append("[")
        for i, x in enumerate(v):
            if i:
                out.append(",")
            _encode(x, out, depth + 1)
        out.append("]")
        if t is tuple:
            out.append("}")
    elif t is dict:
        str_keys = True
        for k in v:
            if _type(k) is not str:
                str_keys = False
        if not str_keys:
            out.append('{"$dict":[')
            for i, (k, x) in enumerate(v.items()):
                out.append(",[" if i else "[")
                _encode(k, out, depth + 1)
                out.append(",")
                _encode(x, out, depth + 1)
                out.append("]")
            out.append("]}")
            return
        if _len(v) == 1:
            for k in v:
                if k in _RESERVED:
                    raise _Unsupported("dict key %r is reserved by the harness" % k)
        out.append("{")
        for i, (k, x) in enumerate(v.items()):
            if i:
                out.append(",")
            out.append(_encode_str(k))
            out.append(":")
            _encode(x, out, depth + 1)
        out.append("}")
    else:
        # Subclasses (of int, str, ...) land here too: `type(v) is int` is exact.
        raise _Unsupported("unsupported return type %s" % _type(v).__qualname__)
