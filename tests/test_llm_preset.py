"""What a preset formaliser tells the runtime besides its answers: the resources one cluster
worker needs to run it, and its end-of-run lines."""

from __future__ import annotations

import pytest
from afcheck_llm.presets import KIMINA
from llm_fixtures import FakeEngine, FakeSamplingParams

from afcheck.llm import PresetFormaliser
from afcheck.llm.vllm_client import VLLMClient


def _vllm(**engine: object) -> VLLMClient:
    return VLLMClient("m", engine=FakeEngine(lambda prompt, params, i: ("", "stop")),
                      sampling_params=FakeSamplingParams,  # type: ignore[arg-type]
                      engine_kwargs=engine)


def test_an_offline_engine_asks_for_its_tensor_parallel_gpus() -> None:
    assert PresetFormaliser(KIMINA, _vllm()).resources == {"GPU": 1.0}
    assert PresetFormaliser(KIMINA, _vllm(tensor_parallel_size=4)).resources == {"GPU": 4.0}


def test_a_server_client_needs_no_gpu_and_gives_replica_lines() -> None:
    pytest.importorskip("httpx")
    from afcheck.llm.http_client import HTTPClient, HTTPSettings

    client = HTTPClient(HTTPSettings("http://127.0.0.1:9/v1|http://127.0.0.1:10/v1", "m"))
    formaliser = PresetFormaliser(KIMINA, client)
    assert formaliser.resources == {}
    lines = formaliser.summary_lines()
    client.close()
    assert [line.split(":")[0:3] for line in lines] == [
        ["LLM replica http", "//127.0.0.1", "9/v1"], ["LLM replica http", "//127.0.0.1", "10/v1"]]


class _Recording:
    """A client that answers every prompt with one Lean theorem and keeps the prompts."""

    backend = "recording"
    model = "m"

    def __init__(self) -> None:
        self.prompts: list[object] = []

    def generate(self, prompts, sampling):  # type: ignore[no-untyped-def]
        from afcheck.llm.records import Completion

        self.prompts.extend(prompts)
        return [[Completion("```lean\ntheorem my_favorite_theorem : 1 + 1 = 2 := by sorry\n```",
                            "stop")] for _ in prompts]


def _with_prompt_file(tmp_path, text: str, preset=None):  # type: ignore[no-untyped-def]
    from afcheck_llm.presets import FRONTIER

    from afcheck.llm.preset import preset_factory

    path = tmp_path / "prompt.toml"
    path.write_text(text, encoding="utf-8")
    client = _Recording()
    factory = preset_factory(preset or FRONTIER, client_factory=lambda options, p: client)
    return factory({"prompt_file": str(path), "model": "m"}), client


def test_a_prompt_file_replaces_a_chat_presets_prompt(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from afcheck.types import FormaliseRequest

    formaliser, client = _with_prompt_file(
        tmp_path,
        'system = "You write Lean 4."\nuser = "Formalise {statement} as {name}. {{ok}}"\n')
    [made] = formaliser.formalise([FormaliseRequest("k", "1 + 1 = 2")])
    assert made.statement.startswith("theorem my_favorite_theorem")
    [prompt] = client.prompts
    assert [(m.role, m.content) for m in prompt.messages] == [  # type: ignore[attr-defined]
        ("system", "You write Lean 4."),
        ("user", "Formalise 1 + 1 = 2 as my_favorite_theorem. {ok}")]
    from afcheck_llm.presets import FRONTIER

    plain = PresetFormaliser(FRONTIER, _Recording())
    assert formaliser.version != plain.version  # no cached result of another prompt is reused


@pytest.mark.parametrize(("text", "message"), [
    ('user = "{statment}"', r"user names \{statment\}; the fields are \{informal\}"),
    ('user = "x"\nsystm = "y"', r"unknown key\(s\) systm; frontier takes user, system"),
    ('system = "only"', r'needs user = "…"'),
    ("user = ", r"not TOML"),
    ('user = "{"', r"user: .*write a literal brace"),
])
def test_a_bad_prompt_file_is_one_line(tmp_path, text: str, message: str) -> None:  # type: ignore[no-untyped-def]
    from afcheck.errors import UsageError

    with pytest.raises(UsageError, match=r"^formaliser 'frontier': prompt_file .*prompt\.toml: "
                                         + message):
        _with_prompt_file(tmp_path, text)


def test_a_missing_prompt_file_is_one_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from afcheck_llm.presets import FRONTIER

    from afcheck.errors import UsageError
    from afcheck.llm.preset import preset_factory

    factory = preset_factory(FRONTIER, client_factory=lambda options, p: _Recording())
    with pytest.raises(UsageError, match="prompt_file .*nope.toml: cannot read it"):
        factory({"prompt_file": str(tmp_path / "nope.toml")})


def test_a_request_deadline_leaves_the_fingerprint_so_paid_replies_are_found_again() -> None:
    from afcheck.method import Choice
    from afcheck.plugins import Plugins
    from afcheck.registry import FORMALISER
    from afcheck.runtime import Components

    components = Components(Plugins(autoload=True))

    def fingerprint(**options: str) -> str:
        built = components.get(FORMALISER, Choice.of(
            "kimina", {"base_url": "http://127.0.0.1:9/v1", **options}))
        return built.fingerprint

    assert fingerprint(deadline_s="600") == fingerprint() == fingerprint(deadline_s="60")
    assert fingerprint(temperature="0.7") != fingerprint()
