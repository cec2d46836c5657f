"""The HTTP providers against real HTTP servers in threads: retries, errors, fallback, privacy."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from slowloop.config import load_config
from slowloop.errors import ModelError, PrivacyError, ProviderError, UserError
from slowloop.providers import AnthropicProvider, Completion, OpenAICompatProvider, Provider, get_provider

SCHEMA = {
    "title": "reflection",
    "type": "object",
    "properties": {"actions": {"type": "array", "items": {"type": "object"}}},
    "required": ["actions"],
}


def chat_reply(content: str | None, model: str = "fake-model", **message: Any) -> dict:
    return {"id": "x", "object": "chat.completion", "model": model, "choices": [
        {"index": 0, "finish_reason": "stop",
         "message": {"role": "assistant", "content": content, **message}}]}


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass
class Seen:
    path: str
    headers: dict[str, str]
    body: dict


class FakeServer:
    """A scripted JSON endpoint: each POST takes the next queued reply and is recorded."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.replies: list[Reply] = []
        self.seen: list[Seen] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                fake.seen.append(Seen(self.path, {k.lower(): v for k, v in self.headers.items()},
                                      json.loads(raw)))
                reply = fake.replies.pop(0) if fake.replies else Reply(500, {"error": "unscripted"})
                time.sleep(reply.delay)
                payload = (reply.body if isinstance(reply.body, (bytes, str))
                           else json.dumps(reply.body))
                payload = payload.encode() if isinstance(payload, str) else payload
                try:
                    self.send_response(reply.status)
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer((host, 0), Handler)
        self.httpd.daemon_threads = True
        self.httpd.block_on_close = False
        self.port = self.httpd.server_address[1]
        self.host = host
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def queue(self, *replies: Reply) -> None:
        self.replies.extend(replies)

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[FakeServer]:
    srv = FakeServer()
    yield srv
    srv.close()


@pytest.fixture
def sleeps() -> list[float]:
    return []


def openai(server: FakeServer, sleeps: list[float], **kw: Any) -> OpenAICompatProvider:
    kw.setdefault("retries", 3)
    return OpenAICompatProvider(base_url=server.url, model="smol", sleep=sleeps.append, **kw)


@pytest.fixture
def no_connections(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        pytest.fail(f"a connection was attempted: {args!r}")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)


# --- OpenAI-compatible: the happy path -------------------------------------------------------

def test_structured_request_to_local_server(server: FakeServer, sleeps: list[float]) -> None:
    server.queue(Reply(body=chat_reply('{"actions": []}', model="smol-q4")))
    provider = openai(server, sleeps)
    assert isinstance(provider, Provider)
    out = provider.complete("You reflect.", "Here is the bundle.", schema=SCHEMA)
    assert out == Completion(text='{"actions": []}', model="smol-q4",
                             destination=f"http://127.0.0.1:{server.port} (loopback)")
    [req] = server.seen
    assert req.path == "/v1/chat/completions"
    assert req.body["response_format"] == {"type": "json_object", "schema": SCHEMA}
    assert req.body["max_tokens"] == 2000 and req.body["model"] == "smol"
    system, user = req.body["messages"]
    assert system["role"] == "system" and '"required":["actions"]' in system["content"]
    assert user == {"role": "user", "content": "Here is the bundle."}
    assert "authorization" not in req.headers  # no key configured: none sent


def test_key_comes_from_the_named_variable(server: FakeServer, sleeps: list[float],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOCAL_LLM_KEY", "sk-local-123")
    server.queue(Reply(body=chat_reply("hello")))
    out = openai(server, sleeps, api_key_env="LOCAL_LLM_KEY").complete("s", "u")
    assert out.text == "hello"
    assert server.seen[0].headers["authorization"] == "Bearer sk-local-123"
    assert "response_format" not in server.seen[0].body


def test_missing_key_variable_fails_before_any_request(server: FakeServer,
                                                        sleeps: list[float]) -> None:
    with pytest.raises(ProviderError) as err:
        openai(server, sleeps, api_key_env="NOT_SET_ANYWHERE").complete("s", "u")
    assert not err.value.transient and "$NOT_SET_ANYWHERE" in str(err.value)
    assert server.seen == []


def test_fenced_json_is_unwrapped_when_a_schema_was_asked(server: FakeServer,
                                                          sleeps: list[float]) -> None:
    server.queue(Reply(body=chat_reply('```json\n{"actions": [{"kind": "nothing"}]}\n```')))
    out = openai(server, sleeps).complete("s", "u", schema=SCHEMA)
    assert json.loads(out.text) == {"actions": [{"kind": "nothing"}]}


def test_empty_answer_is_a_model_error(server: FakeServer, sleeps: list[float]) -> None:
    server.queue(Reply(body=chat_reply(None)))
    with pytest.raises(ModelError, match="empty answer"):
        openai(server, sleeps).complete("s", "u")


# --- retries and backoff -------------------------------------------------------------------

def test_429_honours_retry_after_then_succeeds(server: FakeServer, sleeps: list[float]) -> None:
    server.queue(Reply(429, {"error": {"message": "rate limited"}}, {"Retry-After": "7"}),
                 Reply(body=chat_reply("ok")))
    assert openai(server, sleeps).complete("s", "u").text == "ok"
    assert sleeps == [7.0] and len(server.seen) == 2


def test_503_retries_with_growing_backoff_then_gives_up_transient(server: FakeServer,
                                                                  sleeps: list[float]) -> None:
    server.queue(*[Reply(503, {"error": {"message": "loading model"}}) for _ in range(3)])
    with pytest.raises(ProviderError) as err:
        openai(server, sleeps, retries=2).complete("s", "u")
    assert err.value.transient
    assert "503" in str(err.value) and "3 attempts" in str(err.value)
    assert len(server.seen) == 3
    # equal jitter: attempt n waits between half and all of base * 2**n
    assert 0.5 <= sleeps[0] <= 1.0 and 1.0 <= sleeps[1] <= 2.0


def test_retry_after_beyond_the_cap_is_not_waited_for(server: FakeServer,
                                                      sleeps: list[float]) -> None:
    server.queue(Reply(429, {"error": {"message": "quota"}}, {"Retry-After": "3600"}))
    with pytest.raises(ProviderError) as err:
        openai(server, sleeps, max_retry_wait=60).complete("s", "u")
    assert err.value.transient and "3600s" in str(err.value)
    assert sleeps == [] and len(server.seen) == 1


def test_401_is_not_retried_and_names_the_variable_not_the_key(
        server: FakeServer, sleeps: list[float], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-999")
    server.queue(Reply(401, {"error": {"message": "Incorrect API key provided: sk-secret-999"}}))
    with pytest.raises(ProviderError) as err:
        openai(server, sleeps, api_key_env="OPENAI_API_KEY").complete("s", "u")
    assert not err.value.transient
    assert "check the key in $OPENAI_API_KEY" in str(err.value)
    assert "sk-secret-999" not in str(err.value)
    assert len(server.seen) == 1 and sleeps == []


def test_404_hints_at_the_base_url(server: FakeServer, sleeps: list[float]) -> None:
    server.queue(Reply(404, "Not Found"))
    with pytest.raises(ProviderError) as err:
        openai(server, sleeps).complete("s", "u")
    assert not err.value.transient and "/v1" in str(err.value) and len(server.seen) == 1


def test_a_slow_server_times_out_as_transient(server: FakeServer, sleeps: list[float]) -> None:
    # The replies come far later than any machine is slow (the handler threads are daemons, so
    # nothing waits for them): an elapsed time near the 0.6 s of two timeouts, not the 60 s of two
    # replies, is the timeout at work, whatever else runs on the machine.
    server.queue(Reply(body=chat_reply("late"), delay=30.0), Reply(body=chat_reply("late"), delay=30.0))
    started = time.monotonic()
    with pytest.raises(ProviderError) as err:
        openai(server, sleeps, timeout=0.3, retries=1).complete("s", "u")
    assert err.value.transient and "did not answer within 0.3s" in str(err.value)
    assert time.monotonic() - started < 15
    assert len(server.seen) == 2 and len(sleeps) == 1


def test_nothing_listening_is_transient(sleeps: list[float]) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again when the block ends: nobody listens there
    provider = OpenAICompatProvider(base_url=f"http://127.0.0.1:{port}/v1", retries=1,
                                    sleep=sleeps.append)
    with pytest.raises(ProviderError) as err:
        provider.complete("s", "u")
    assert err.value.transient and "refused" in str(err.value)


def test_redirects_are_not_followed(server: FakeServer, sleeps: list[float]) -> None:
    server.queue(Reply(302, "", {"Location": "http://collector.example.com/v1/chat/completions"}))
    with pytest.raises(ProviderError) as err:
        openai(server, sleeps).complete("s", "u")
    assert not err.value.transient and "collector.example.com" in str(err.value)
    assert len(server.seen) == 1


# --- structured output: modes and the fallback ---------------------------------------------

@pytest.mark.parametrize("status,complaint", [
    (400, {"error": {"message": "Invalid value for 'response_format.type': json_schema"}}),
    (422, {"detail": [{"loc": ["body", "response_format", "type"], "msg": "Input should be "
                       "'text' or 'json_object'"}]}),
])
def test_server_rejecting_response_format_falls_back_to_plain_prompting(
        server: FakeServer, sleeps: list[float], status: int, complaint: dict) -> None:
    server.queue(Reply(status, complaint), Reply(body=chat_reply('{"actions": []}')),
                 Reply(body=chat_reply('{"actions": []}')))
    provider = openai(server, sleeps, structured="json_schema")
    assert provider.complete("You reflect.", "bundle", schema=SCHEMA).text == '{"actions": []}'
    first, second = server.seen
    assert first.body["response_format"]["type"] == "json_schema"
    assert first.body["response_format"]["json_schema"]["schema"] == SCHEMA
    assert "response_format" not in second.body
    assert "JSON Schema" in second.body["messages"][0]["content"]
    assert sleeps == []  # a fallback is not a retry
    provider.complete("You reflect.", "bundle", schema=SCHEMA)  # remembered: plain straight away
    assert "response_format" not in server.seen[2].body


def test_a_400_about_something_else_does_not_fall_back(server: FakeServer,
                                                       sleeps: list[float]) -> None:
    server.queue(Reply(400, {"error": {"message": "maximum context length is 2048 tokens"}}))
    with pytest.raises(ProviderError) as err:
        openai(server, sleeps).complete("s", "u", schema=SCHEMA)
    assert not err.value.transient and "context length" in str(err.value)
    assert len(server.seen) == 1


def test_auto_picks_json_schema_for_openai_and_json_object_elsewhere(
        server: FakeServer, no_connections: None) -> None:
    assert OpenAICompatProvider(base_url=server.url).structured == "json_object"
    vendor = OpenAICompatProvider(model="gpt-x", allow_remote=["api.openai.com"])
    assert vendor.structured == "json_schema"
    assert vendor.api_key_env == "OPENAI_API_KEY"
    assert vendor.destination() == "api.openai.com (remote, allowed by host)"


def test_unknown_structured_mode_is_a_user_error(server: FakeServer) -> None:
    with pytest.raises(UserError, match="provider.structured"):
        OpenAICompatProvider(base_url=server.url, structured="xml")  # type: ignore[arg-type]


# --- privacy --------------------------------------------------------------------------------

def test_remote_endpoint_is_refused_before_any_connection(no_connections: None) -> None:
    cfg = load_config().with_overrides(provider={
        "kind": "openai", "base_url": "http://llm.corp.invalid:8000/v1", "name": "corp"})
    with pytest.raises(PrivacyError) as err:
        get_provider(cfg)
    text = str(err.value)
    assert "'corp'" in text and "llm.corp.invalid" in text and "allow_remote" in text


def test_allowing_another_name_does_not_allow_this_one(no_connections: None) -> None:
    cfg = load_config().with_overrides(
        provider={"kind": "anthropic", "model": "m"}, privacy={"allow_remote": ["openai"]})
    with pytest.raises(PrivacyError, match="'anthropic'"):
        get_provider(cfg)


def test_allowed_by_host_through_the_environment(no_connections: None,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLOWLOOP_PROVIDER__KIND", "openai")
    monkeypatch.setenv("SLOWLOOP_PROVIDER__BASE_URL", "https://llm.corp.invalid/v1")
    monkeypatch.setenv("SLOWLOOP_PROVIDER__NAME", "corp")
    monkeypatch.setenv("SLOWLOOP_PRIVACY__ALLOW_REMOTE", "llm.corp.invalid")
    provider = get_provider(load_config())
    assert provider is not None
    assert provider.destination() == "llm.corp.invalid (remote, allowed by host)"


def test_a_provider_name_allows_nothing(no_connections: None) -> None:
    # the name is a label anyone can write; the host is where the bundle goes
    for allowed in (["openai"], ["corp"], ["api.openai.com"], [".openai.com"]):
        with pytest.raises(PrivacyError, match="attacker.example"):
            OpenAICompatProvider(base_url="https://attacker.example/v1", name="openai",
                                 allow_remote=allowed)
    assert OpenAICompatProvider(base_url="https://llm.attacker.example/v1", name="x",
                                allow_remote=[".attacker.example"]).destination().startswith(
        "llm.attacker.example")


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:8080/v1", "http://127.8.9.10/v1", "http://[::1]:8080/v1",
    "http://localhost:11434/v1", "http://[::ffff:127.0.0.1]:80/v1",
])
def test_loopback_endpoints_need_no_permission(url: str, no_connections: None) -> None:
    assert OpenAICompatProvider(base_url=url).destination().endswith("(loopback)")


@pytest.mark.parametrize("url", [
    "http://10.0.0.5:8080/v1", "http://192.168.1.20/v1", "http://[2001:db8::1]/v1",
    "http://0.0.0.0:8080/v1",
])
def test_private_network_addresses_are_still_remote(url: str, no_connections: None) -> None:
    with pytest.raises(PrivacyError):
        OpenAICompatProvider(base_url=url)


def test_a_name_resolving_to_loopback_counts_as_loopback(
        server: FakeServer, sleeps: list[float], monkeypatch: pytest.MonkeyPatch) -> None:
    real = socket.getaddrinfo
    answers = {"llm-box.lan": ["127.0.0.1"], "half-local.lan": ["127.0.0.1", "203.0.113.5"]}

    def fake_dns(host: str, *args: Any, **kwargs: Any) -> list:
        if host in answers:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, args[0] or 0))
                    for ip in answers[host]]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", fake_dns)
    provider = OpenAICompatProvider(base_url=f"http://llm-box.lan:{server.port}/v1",
                                    sleep=sleeps.append)
    assert provider.destination() == f"http://llm-box.lan:{server.port} (loopback)"
    server.queue(Reply(body=chat_reply("via name")))
    assert provider.complete("s", "u").text == "via name"
    with pytest.raises(PrivacyError, match="203.0.113.5"):
        OpenAICompatProvider(base_url="http://half-local.lan/v1")  # one remote address: refused


def _lan_ip() -> str | None:
    """This machine's non-loopback IPv4 address, if it has one (a UDP connect sends nothing)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.123", 9))
        except OSError:
            return None
        ip = s.getsockname()[0]
    return None if ip.startswith("127.") or ip == "0.0.0.0" else ip


def test_an_allowed_remote_endpoint_really_works(sleeps: list[float],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    ip = _lan_ip()
    if ip is None:
        pytest.skip("this machine has no non-loopback IPv4 address to play a remote server")
    for var in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(var, raising=False)
    remote = FakeServer(host=ip)
    try:
        with pytest.raises(PrivacyError):
            OpenAICompatProvider(base_url=remote.url, name="lan-box")
        assert remote.seen == []
        provider = OpenAICompatProvider(base_url=remote.url, name="lan-box",
                                        allow_remote=[ip], sleep=sleeps.append)
        remote.queue(Reply(body=chat_reply("from the lan")))
        out = provider.complete("s", "u")
        assert out.text == "from the lan"
        assert out.destination == f"{ip} (remote, allowed by host)"
    finally:
        remote.close()


def test_bad_base_url_is_a_user_error() -> None:
    with pytest.raises(UserError, match="not an http"):
        OpenAICompatProvider(base_url="localhost:8080/v1")


def test_get_provider_kinds() -> None:
    cfg = load_config()
    assert get_provider(cfg) is None  # offline by default: no model at all
    with pytest.raises(UserError, match="provider.kind"):
        get_provider(cfg.with_overrides(provider={"kind": "gpt"}))
    cmd = get_provider(cfg.with_overrides(provider={"kind": "command", "command": "claude -p"}))
    assert cmd is not None and cmd.kind == "command" and cmd.name == "claude"


# --- Anthropic Messages API -----------------------------------------------------------------

def anthropic(server: FakeServer, sleeps: list[float], **kw: Any) -> AnthropicProvider:
    kw.setdefault("api_key_env", "TEST_ANTHROPIC_KEY")
    return AnthropicProvider(base_url=f"http://127.0.0.1:{server.port}", model="claude-test",
                             sleep=sleeps.append, **kw)


def messages_reply(*blocks: dict, stop: str = "end_turn") -> dict:
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test-0",
            "content": list(blocks), "stop_reason": stop}


def test_anthropic_forced_tool_returns_the_tool_input_as_json(
        server: FakeServer, sleeps: list[float], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_ANTHROPIC_KEY", "sk-ant-test")
    server.queue(Reply(body=messages_reply(
        {"type": "text", "text": "Recording."},
        {"type": "tool_use", "id": "t1", "name": "reflection", "input": {"actions": []}},
        stop="tool_use")))
    out = anthropic(server, sleeps).complete("You reflect.", "bundle", schema=SCHEMA)
    assert json.loads(out.text) == {"actions": []}
    assert out.model == "claude-test-0"
    assert out.destination == f"http://127.0.0.1:{server.port} (loopback)"
    [req] = server.seen
    assert req.path == "/v1/messages"
    assert req.headers["x-api-key"] == "sk-ant-test"
    assert req.headers["anthropic-version"] == "2023-06-01"
    assert req.body["system"] == "You reflect."
    assert req.body["messages"] == [{"role": "user", "content": "bundle"}]
    assert req.body["tool_choice"] == {"type": "tool", "name": "reflection"}
    assert req.body["tools"][0]["input_schema"] == SCHEMA


def test_anthropic_plain_text_and_overloaded_retry(
        server: FakeServer, sleeps: list[float], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_ANTHROPIC_KEY", "k")
    server.queue(Reply(529, {"type": "error", "error": {"type": "overloaded_error",
                                                         "message": "Overloaded"}}),
                 Reply(body=messages_reply({"type": "text", "text": "Nothing to save."})))
    out = anthropic(server, sleeps).complete("s", "u")
    assert out.text == "Nothing to save."
    assert len(server.seen) == 2 and len(sleeps) == 1
    assert "tools" not in server.seen[1].body


def test_anthropic_401_names_the_variable(server: FakeServer, sleeps: list[float],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_ANTHROPIC_KEY", "bad")
    server.queue(Reply(401, {"type": "error", "error": {"type": "authentication_error",
                                                         "message": "invalid x-api-key"}}))
    with pytest.raises(ProviderError) as err:
        anthropic(server, sleeps).complete("s", "u")
    assert not err.value.transient and "$TEST_ANTHROPIC_KEY" in str(err.value)
    assert len(server.seen) == 1


def test_anthropic_model_that_skips_the_tool_is_a_model_error(
        server: FakeServer, sleeps: list[float], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_ANTHROPIC_KEY", "k")
    server.queue(Reply(body=messages_reply({"type": "text", "text": "I'd rather chat."})))
    with pytest.raises(ModelError, match="did not call"):
        anthropic(server, sleeps).complete("s", "u", schema=SCHEMA)


def test_anthropic_needs_a_model(server: FakeServer) -> None:
    with pytest.raises(ProviderError, match="provider.model"):
        AnthropicProvider(base_url=f"http://127.0.0.1:{server.port}")


def test_retry_after_forms() -> None:
    from email.utils import formatdate

    from slowloop.providers.http_json import retry_after_seconds

    now = 1_800_000_000.0
    assert retry_after_seconds({"retry-after": "12"}, now) == 12.0
    assert retry_after_seconds({"retry-after-ms": "1500", "retry-after": "9"}, now) == 1.5
    assert retry_after_seconds({"retry-after": formatdate(now + 30, usegmt=True)}, now) == 30.0
    assert retry_after_seconds({"retry-after": "soon"}, now) is None
    assert retry_after_seconds({}, now) is None


def test_a_name_that_resolves_elsewhere_after_the_check_gets_nothing(
        sleeps: list[float], monkeypatch: pytest.MonkeyPatch) -> None:
    """DNS rebinding: the name was loopback when the provider was built, and points at another
    machine when the request connects. The connected address is checked, so nothing is sent."""
    ip = _lan_ip()
    if ip is None:
        pytest.skip("this machine has no non-loopback address to rebind to")
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    remote = FakeServer(host=ip)
    real = socket.getaddrinfo
    answers = iter(["127.0.0.1"])

    def rebinding(host, *args, **kwargs):
        if host == "rebind.test":
            return real(next(answers, ip), *args, **kwargs)
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    try:
        provider = OpenAICompatProvider(base_url=f"http://rebind.test:{remote.port}/v1",
                                        sleep=sleeps.append)
        assert provider.destination().endswith("(loopback)")
        remote.queue(Reply(body=chat_reply("leaked")))
        with pytest.raises(PrivacyError, match="not a loopback address"):
            provider.complete("s", "u")
        assert remote.seen == []
    finally:
        remote.close()


class _Abusive(BaseHTTPRequestHandler):
    """A server that answers too much, or a byte at a time for ever."""

    mode = "huge"

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        try:
            if self.mode == "huge":
                chunk = b" " * (1 << 20)
                for _ in range(8):
                    self.wfile.write(chunk)
            else:
                for _ in range(120):
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(0.1)
        except (BrokenPipeError, ConnectionResetError):
            pass


@pytest.mark.parametrize("mode, error", [("huge", "more than 4 MB"), ("trickle", "did not finish its answer")])
def test_an_answer_too_large_or_never_finished_is_cut_off(mode: str, error: str) -> None:
    from slowloop.providers.base import RetryableError
    from slowloop.providers.http_json import post_json

    handler = type("H", (_Abusive,), {"mode": mode})
    srv = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        started = time.monotonic()
        with pytest.raises((ProviderError, RetryableError)) as err:
            post_json(f"http://127.0.0.1:{srv.server_address[1]}/v1/chat/completions", {"x": 1}, headers={},
                      timeout=1.0, use_env_proxy=False, loopback_only=True)
        assert error in str(err.value)
        assert time.monotonic() - started < 6  # never the 12 s the trickle would take, nor for ever
    finally:
        srv.shutdown()
        srv.server_close()
