"""Score a model, not the ensemble: a spaCy pipeline's own entities against gold.

``evaluate --model DIR`` answers what ``spacy evaluate`` would: the entities the pipeline
at ``DIR`` finds on its own, exact spans, whole mentions, over the labels it knows. The
ensemble's figures (``evaluate`` without ``--model``) are another thing: there a lone
member's find can lose the vote, so a model scored through the ensemble looks far worse
than it is (the domain model alone 0.976, through the ensemble's vote 0.092 on one file).

Any spaCy NER pipeline is read: the project's domain model (a ``biluo`` tagger head,
decoded to the best sequence that keeps to the BILUO scheme, as the detector and the
training report do), an exported one (``engine.learning.pipeline``), or one trained by
``spacy train`` (a ``ner`` component). Django-free.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.gold import GoldDoc
from engine.learning.biluo import HEAD, NER
from engine.mentions import join_name_parts


class NotAModel(ValueError):
    """The directory is no spaCy pipeline with entities to score."""


def load_model(path: str | Path) -> Any:
    """The spaCy pipeline at ``path`` (our head's factory and architecture registered)."""
    import spacy

    import engine.learning.domain_arch  # noqa: F401 - the head's input layer
    import engine.learning.pipeline  # noqa: F401 - the exported head's factory

    path = Path(path)
    if not (path / "config.cfg").is_file():
        raise NotAModel(f"{path} is no spaCy pipeline (no config.cfg)")
    try:
        return spacy.load(path)
    except (OSError, ValueError, KeyError) as exc:
        raise NotAModel(f"{path} could not be loaded as a spaCy pipeline: {exc}") from exc


def model_labels(nlp: Any) -> list[str]:
    """The entity labels the pipeline can give."""
    if HEAD in nlp.pipe_names:
        tags = nlp.get_pipe(HEAD).labels
        return sorted({t[2:] for t in tags if len(t) > 2 and t[1] == "-"})
    if NER in nlp.pipe_names:
        return sorted(nlp.get_pipe(NER).labels)
    raise NotAModel("the pipeline has neither a 'biluo' tagger head nor an 'ner' component")


def score_model(nlp: Any, docs: Sequence[GoldDoc]) -> dict:
    """The pipeline's own figures on ``docs`` (whole mentions; gold restricted to the
    labels the model knows, which the report lists), in ``evaluate``'s JSON shape."""
    from engine.learning.domain import evaluate

    labels = model_labels(nlp)
    whole = [
        GoldDoc(d.id, d.text, sorted(set(join_name_parts(d.text, d.spans))), list(d.ignore), d.meta)
        for d in docs
    ]
    figures = evaluate(nlp, whole, labels)
    other = sorted({s.label for d in docs for s in d.spans} - set(labels))
    return {**figures, "labels_scored": labels, "labels_not_scored": other}
