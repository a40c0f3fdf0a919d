"""Batched window inference of a token classifier, back to character offsets. Django-free."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from engine.learning import hf
from engine.learning.encoding import (
    TaggedSpan,
    decode_words,
    encode_text,
    make_windows,
    word_starts,
)

DEFAULT_STRIDE = 128


class TokenTagger:
    """A token classifier with its tokenizer and tag map, ready to tag long texts.

    ``predict(text)`` tokenizes once, cuts word-aligned overlapping windows, runs
    them through the model ``batch_size`` at a time, keeps for every piece the
    prediction of the window where it has the most context, and decodes words into
    spans with character offsets (end exclusive).
    """

    def __init__(
        self,
        model,
        tokenizer,
        id2tag: Sequence[str],
        *,
        max_length: int = 512,
        stride: int = DEFAULT_STRIDE,
        batch_size: int = 8,
        device=None,
    ) -> None:
        import torch

        self.model = model
        self.tokenizer = tokenizer
        self.id2tag = list(id2tag)
        limit = getattr(model.config, "max_position_embeddings", max_length) or max_length
        self.max_length = max(8, min(int(max_length), int(limit)))
        self.stride = int(stride)
        self.batch_size = max(1, int(batch_size))
        self.device = device or next(model.parameters()).device
        self._torch = torch

    @classmethod
    def from_dir(
        cls, path: str | Path, *, batch_size: int = 8, device: str | None = None
    ) -> TokenTagger:
        """Load a trained model directory (``config.json`` carries the tag map)."""
        hf.go_offline()
        from transformers import AutoModelForTokenClassification

        directory = hf.check_model_dir(path)
        dev = hf.pick_device(device)
        model = AutoModelForTokenClassification.from_pretrained(
            str(directory), local_files_only=True
        )
        model.to(dev)
        model.eval()
        id2tag = [model.config.id2label[i] for i in range(model.config.num_labels)]
        info = hf.read_training_info(directory)
        settings = info.get("config", {})
        tagger = cls(
            model,
            hf.load_tokenizer(directory),
            id2tag,
            max_length=settings.get("max_length", 512),
            stride=settings.get("stride", DEFAULT_STRIDE),
            batch_size=batch_size,
            device=dev,
        )
        return tagger

    @property
    def labels(self) -> list[str]:
        return sorted({tag[2:] for tag in self.id2tag if tag != "O"})

    def windows(self, text: str):
        """The encoded text and its inference windows (piece ranges)."""
        encoded = encode_text(self.tokenizer, text)
        starts = word_starts(text, encoded.offsets)
        windows = make_windows(
            len(encoded),
            max_tokens=self.max_length - 2,
            stride=self.stride,
            can_cut=lambda i: i >= len(starts) or starts[i],
        )
        return encoded, windows

    def predict(self, text: str) -> list[TaggedSpan]:
        return self.predict_many([text])[0]

    def predict_many(self, texts: Sequence[str]) -> list[list[TaggedSpan]]:
        """Spans for each text; windows of all texts share batches."""
        torch = self._torch
        jobs = []  # (text index, window start, window end)
        encoded_texts = []
        for t_index, text in enumerate(texts):
            encoded, windows = self.windows(text)
            encoded_texts.append(encoded)
            jobs += [(t_index, s, e) for s, e in windows]

        n_tags = len(self.id2tag)
        best_prob = [torch.zeros((len(enc), n_tags)) for enc in encoded_texts]
        best_margin = [[-1] * len(enc) for enc in encoded_texts]
        cls_id = self.tokenizer.cls_token_id
        sep_id = self.tokenizer.sep_token_id
        pad_id = self.tokenizer.pad_token_id or 0

        self.model.eval()
        with torch.inference_mode():
            for b in range(0, len(jobs), self.batch_size):
                batch = jobs[b : b + self.batch_size]
                rows = [[cls_id, *encoded_texts[t].input_ids[s:e], sep_id] for t, s, e in batch]
                width = max(len(r) for r in rows)
                ids = torch.full((len(rows), width), pad_id, dtype=torch.long)
                mask = torch.zeros((len(rows), width), dtype=torch.long)
                for r, row in enumerate(rows):
                    ids[r, : len(row)] = torch.tensor(row, dtype=torch.long)
                    mask[r, : len(row)] = 1
                logits = self.model(
                    input_ids=ids.to(self.device), attention_mask=mask.to(self.device)
                ).logits
                probs = torch.softmax(logits.float(), dim=-1).cpu()
                for r, (t, s, e) in enumerate(batch):
                    margins = best_margin[t]
                    target = best_prob[t]
                    for k in range(e - s):
                        margin = min(k, e - s - 1 - k)
                        if margin > margins[s + k]:
                            margins[s + k] = margin
                            target[s + k] = probs[r, k + 1]

        results = []
        for text, encoded, probs in zip(texts, encoded_texts, best_prob, strict=True):
            if len(encoded) == 0:
                results.append([])
                continue
            scores, tag_ids = probs.max(dim=-1)
            results.append(
                decode_words(text, encoded.offsets, tag_ids.tolist(), scores.tolist(), self.id2tag)
            )
        return results
