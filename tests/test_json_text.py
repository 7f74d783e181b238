"""The encoder set up once gives ``json.dumps``'s text, character for character."""

from __future__ import annotations

import json
from json import encoder as json_encoder
from pathlib import Path

import pytest

from afcheck import json_text

VALUES = [
    {"case_id": "pb::gsm8k-1/0.1", "text": "So \\(R = 4B\\): \"quoted\"\n\ttab", "n": 3},
    {"z": None, "elapsed_s": 0.0022777100020903163, "big": 10**30, "neg": -0.0, "t": True},
    {"context": ["Let x = 2.", "é ⊤ ⊥ ∅ z̄ 𝔽", "\ud800 lone", ""], "empty": {}, "list": []},
    {"2": "digits", "b": {"y": 1, "x": [1.5, float("inf"), float("-inf")]}, "a": (1, "t")},
    "a top-level string with \u2028 and \x00",
    [1e-300, 1e300, 123456789.123456789, 5e-324],
    None, True, 0, 1.0,
]


@pytest.mark.parametrize("ensure_ascii", [True, False])
@pytest.mark.parametrize("sort_keys", [True, False])
def test_the_text_is_json_dumps_own(ensure_ascii: bool, sort_keys: bool) -> None:
    encode = json_text.encoder(ensure_ascii=ensure_ascii, sort_keys=sort_keys)
    assert not hasattr(encode, "__self__")  # CPython's C encoder, set up once
    for value in VALUES:
        assert encode(value) == json.dumps(value, ensure_ascii=ensure_ascii,
                                           sort_keys=sort_keys)


def test_an_int_key_is_written_as_its_digits() -> None:
    assert json_text.encoder()({2: "a", "b": 1}) == json.dumps({2: "a", "b": 1})


def test_nan_is_written_as_json_dumps_writes_it() -> None:
    encode = json_text.encoder()
    assert encode([float("nan")]) == json.dumps([float("nan")]) == "[NaN]"


def test_default_turns_other_values_into_text() -> None:
    encode = json_text.encoder(ensure_ascii=False, sort_keys=True, default=str)
    value = {"path": Path("/tmp/x"), "parts": (1, "a")}
    assert encode(value) == json.dumps(value, ensure_ascii=False, sort_keys=True,
                                       default=str) == '{"parts": [1, "a"], "path": "/tmp/x"}'


def test_a_value_json_cannot_write_raises_as_json_dumps_does() -> None:
    encode = json_text.encoder()
    with pytest.raises(TypeError, match="not JSON serializable"):
        encode({"x": object()})
    # The encoder is still good afterwards.
    assert encode({"x": [1]}) == '{"x": [1]}'


def test_without_the_c_encoder_the_kept_encoder_writes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(json_encoder, "c_make_encoder", None)
    encode = json_text.encoder(ensure_ascii=False)
    assert encode({"a": "é"}) == '{"a": "é"}'
    assert getattr(encode, "__self__", None).__class__ is json.JSONEncoder


def test_a_c_encoder_that_writes_another_text_is_not_used(
        monkeypatch: pytest.MonkeyPatch) -> None:
    made = json_encoder.c_make_encoder
    assert made is not None

    def wrong(*args: object) -> object:
        real = made(*args)
        return lambda value, level: [*real(value, level), " "]

    monkeypatch.setattr(json_encoder, "c_make_encoder", wrong)
    encode = json_text.encoder()
    monkeypatch.setattr(json_encoder, "c_make_encoder", made)
    assert encode({"a": 1}) == '{"a": 1}'


def test_the_decoder_reads_what_json_loads_reads() -> None:
    decode = json_text.decoder()
    encode = json_text.encoder(ensure_ascii=False)
    for value in VALUES:
        for text in (encode(value), json.dumps(value), f" {encode(value)}\n"):
            assert decode(text) == json.loads(text)
    assert decode('{"a": [1, 2.5, null, "\\ud800"]}') == {"a": [1, 2.5, None, "\ud800"]}


@pytest.mark.parametrize("text", ["", "  ", "{", '{"a": 1} x', "\ufeff{}", "[1,]", "nul"])
def test_the_decoder_raises_json_loads_own_error(text: str) -> None:
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(text)
    with pytest.raises(json.JSONDecodeError) as got:
        json_text.decoder()(text)
    assert str(got.value) == str(expected.value)


def test_the_decoder_reads_bytes_as_json_loads_does() -> None:
    assert json_text.decoder()(b'{"a": [1]}') == {"a": [1]}


@pytest.mark.parametrize("broken", ["signature", "reads"])
def test_a_c_scanner_that_cannot_be_made_or_reads_another_value_is_not_used(
        monkeypatch: pytest.MonkeyPatch, broken: str) -> None:
    from json import scanner as json_scanner

    made = json_scanner.c_make_scanner
    assert made is not None

    def wrong(context: object) -> object:
        if broken == "signature":
            raise TypeError("takes no arguments")
        made(context)
        return lambda text, at: (["not", "it"], len(text))

    monkeypatch.setattr(json_scanner, "c_make_scanner", wrong)
    decode = json_text.decoder()
    assert decode is json.loads


def test_utf8_safe_text_reads_back_the_same_and_is_utf8() -> None:
    value = {"a": "é \ud800 ⊤ \udfff", "b": ["plain"]}
    text = json_text.utf8_safe(json.dumps(value, ensure_ascii=False))
    text.encode("utf-8")  # raises on a lone surrogate
    assert json.loads(text) == value
    assert "é" in text and "⊤" in text
    plain = json.dumps({"a": "é"}, ensure_ascii=False)
    assert json_text.utf8_safe(plain) is plain


def test_utf8_is_the_utf8_of_the_utf8_safe_text() -> None:
    for value in ({"a": "é \ud800 ⊤ \udfff"}, {"a": "é ⊤"}, ["plain"], "\udc00"):
        text = json.dumps(value, ensure_ascii=False)
        data = json_text.utf8(text)
        assert data == json_text.utf8_safe(text).encode("utf-8")
        assert json.loads(data.decode("utf-8")) == value
