"""Each test starts from a fresh kernel session: no engine sent yet."""
import pytest

from attention_playground import _figure


@pytest.fixture(autouse=True)
def fresh_session():
    _figure._sent = False
    _figure._mode = "once"
    yield
