"""Evaluation of predicted spans against gold spans (Django-free).

See :func:`engine.evaluation.metrics.evaluate_documents`.
"""

from engine.evaluation.metrics import (
    PRF,
    evaluate_documents,
    prf,
    tokenize,
)

__all__ = ["PRF", "evaluate_documents", "prf", "tokenize"]
