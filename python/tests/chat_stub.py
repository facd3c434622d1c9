"""A loopback OpenAI-compatible chat-completions server for tests: each
request's reply comes from a Python function of the request body, so a test
can play the oracle or a constant through a real client stack."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: `reply(body)` returns the assistant's text, or a message dict (for tool calls).
Reply = Callable[[dict[str, Any]], "str | dict[str, Any]"]


def completion(body: dict[str, Any], message: dict[str, Any], index: int) -> dict[str, Any]:
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    return {
        "id": f"chatcmpl-stub-{index}",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", "stub"),
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def chunks(body: dict[str, Any], message: dict[str, Any], index: int) -> Iterator[dict[str, Any]]:
    """The same reply as server-sent chunks, for `stream: true`."""
    base = {"id": f"chatcmpl-stub-{index}", "object": "chat.completion.chunk", "created": 0, "model": body.get("model", "stub")}
    delta: dict[str, Any] = {"role": "assistant", "content": message.get("content") or ""}
    if message.get("tool_calls"):
        delta["tool_calls"] = [dict(call, index=i) for i, call in enumerate(message["tool_calls"])]
    yield dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": None}])
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    yield dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": finish}])
    yield dict(base, choices=[], usage={"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2})


@contextmanager
def chat_stub(reply: Reply) -> Iterator[str]:
    """Serves `reply` at `http://127.0.0.1:PORT/v1` (the yielded base URL)
    until the block ends. Requests are answered one at a time, in arrival
    order; a reply function that raises answers 500 with the error."""
    lock = threading.Lock()
    served = [0]

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self.send_error(404, "only /v1/chat/completions")
                return
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            with lock:
                served[0] += 1
                index = served[0]
                try:
                    out = reply(body)
                except Exception as e:  # the test sees it as a failed rollout
                    data = json.dumps({"error": {"message": f"stub reply failed: {e!r}"}}).encode()
                    self.send_response(500)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
            message = {"role": "assistant", "content": out} if isinstance(out, str) else dict(out, role="assistant")
            if body.get("stream"):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                for chunk in chunks(body, message, index):
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")
                return
            data = json.dumps(completion(body, message, index)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
