"""Benchmark and picture: `slowloop ui` on the home `slowloop demo` leaves.

Run: python bench/ui.py [--runs 10] [--screenshot docs/ui.png] [--chromium /usr/bin/chromium]

Measures, with the real command in a subprocess: the time from starting `slowloop ui --no-browser`
to its address on stdout (the server is listening by then), and to the first page answered
(the token's redirect, then the agent's page). Then, with --screenshot, opens the page in headless
Chromium (Playwright) and saves a PNG of the agent's lessons page.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


def _start(home: Path) -> tuple[subprocess.Popen, str, float]:
    env = {**os.environ, "SLOWLOOP_HOME": str(home)}
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "slowloop", "ui", "--no-browser", "--agent", "demo"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    url = proc.stdout.readline().strip()
    return proc, url, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--screenshot", type=Path, default=None)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        subprocess.run([sys.executable, "-m", "slowloop", "demo", "--home", str(home)], check=True,
                       capture_output=True, env={**os.environ, "SLOWLOOP_HOME": str(home)})
        listening, first_page = [], []
        for _ in range(args.runs):
            proc, url, took = _start(home)
            t0 = time.perf_counter()
            browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
            with browser.open(url, timeout=30) as r:  # the token's redirect, with its cookie
                assert r.status == 200 and b"What was learned" in r.read()
            first_page.append(took + time.perf_counter() - t0)
            listening.append(took)
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=10)
        print(f"slowloop ui, {args.runs} starts on the demo home:")
        print(f"  address printed (listening): median {statistics.median(listening) * 1000:.0f} ms, "
              f"max {max(listening) * 1000:.0f} ms")
        print(f"  first page answered:         median {statistics.median(first_page) * 1000:.0f} ms, "
              f"max {max(first_page) * 1000:.0f} ms")
        if args.screenshot:
            _picture(home, args.screenshot, args.chromium)


def _picture(home: Path, out: Path, chromium: str) -> None:
    from playwright.sync_api import sync_playwright

    proc, url, _ = _start(home)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1000, "height": 1000}, device_scale_factor=1)
            page.goto(url)
            page.screenshot(path=str(out), full_page=True)
            browser.close()
        print(f"  screenshot: {out}")
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
