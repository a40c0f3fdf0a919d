"""Evaluation of predicted spans against gold spans (Django-free).

See :func:`annotations.evaluation.metrics.evaluate_documents`.
"""

from annotations.evaluation.metrics import (
    PRF,
    evaluate_documents,
    prf,
    tokenize,
)

__all__ = ["PRF", "evaluate_documents", "prf", "tokenize"]
