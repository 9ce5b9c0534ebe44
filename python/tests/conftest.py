"""Each test starts from a fresh kernel session: no engine sent yet. The
element's own checks (web/, run by node) where the checkout has them."""
import json
import pathlib
import shutil
import subprocess

import pytest

from attention_playground import _figure

web = pathlib.Path(__file__).parents[2] / "web"


@pytest.fixture(autouse=True)
def fresh_session():
    _figure._sent = False
    _figure._mode = "once"
    yield


class Element:
    """web/'s readSettings and readAttention in one node process (element.mjs)."""

    def __init__(self):
        self.process = subprocess.Popen(
            ["node", str(pathlib.Path(__file__).with_name("element.mjs")), str(web) + "/"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def refuses(self, request):
        """The element's one line for the request, or None if it takes it."""
        # ensure_ascii: a lone surrogate crosses the pipe as \\ud800
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        return answer.get("error")

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=10)


@pytest.fixture(scope="session")
def element_checks():
    """None outside a checkout or without node (the package's own tests still run)."""
    if not (web / "element" / "settings.js").exists() or shutil.which("node") is None:
        yield None
        return
    checks = Element()
    yield checks
    checks.close()
