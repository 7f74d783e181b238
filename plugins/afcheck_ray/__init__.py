"""Built-in afcheck plugin: ray — run a stage's chunks on the actors of a Ray cluster.

Registration only; the executor (:mod:`afcheck_ray.executor`) is imported when a run selects
it with ``--executor ray``, and needs ``pip install 'afcheck[ray]'``.
"""

from __future__ import annotations

from afcheck import hookimpl
from afcheck.registry import Register, lazy

# What `afcheck list executors` shows; the meaning of each is in afcheck_ray.executor.OPTIONS.
_OPTIONS = ("address (auto), cpus (1), gpu_stages (none), gpus (1), actors, stages, "
            "timeout_s (120), lost_after_s (10)")


@hookimpl
def afcheck_register_executors(register: Register) -> None:
    register("ray", lazy("afcheck_ray.executor:RayExecutor"),
             description="each component on a pool of warm actors of a Ray cluster; a "
             "component's resources (an offline vLLM engine's GPUs) decide what its actors ask "
             "for (pip install 'afcheck[ray]')",
             details={"backend": "ray", "options": _OPTIONS})
