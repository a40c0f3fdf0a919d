"""A ``config.cfg`` that ``spacy train`` accepts as it is, beside exported DocBins.

The gold export's split folder holds ``train.spacy``, ``dev.spacy`` and ``test.spacy``;
this config (spaCy's own ``init config`` for an English ``ner`` pipeline, CPU,
efficiency) points at the first two by paths relative to that folder, so a researcher
trains with spaCy's own command and no edit::

    cd export && python -m spacy train config.cfg --output model

and brings the result back (``manage.py register_model model/model-best``, or the
Learning page). Django-free.
"""

from __future__ import annotations


def spacy_train_config() -> str:
    """The config's text (``[paths] train = "train.spacy"``, ``dev = "dev.spacy"``)."""
    from spacy.cli.init_config import init_config

    config = init_config(lang="en", pipeline=["ner"], optimize="efficiency", gpu=False)
    config["paths"]["train"] = "train.spacy"
    config["paths"]["dev"] = "dev.spacy"
    return config.to_str()
