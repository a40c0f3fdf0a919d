"""The domain model as a standard spaCy pipeline: ``spacy.load(DIR)`` gives ``doc.ents``.

Inside the tool the domain head is a spaCy ``tagger`` whose BILUO scores the detector
decodes itself (``engine.learning.biluo``). A researcher who takes the model away wants
what every spaCy NER pipeline gives: ``nlp(text).ents``. :func:`export_pipeline` copies a
domain model directory and swaps the head's factory for ``anonreview_biluo``
(:class:`BiluoEntityTagger`): the same weights and serialisation as the ``tagger``, whose
annotation also decodes its scores to the best sequence that keeps to the BILUO scheme
(``best_tags``, as the detector does) and sets ``doc.ents``; ``spacy evaluate`` scores
its entities (``ents_f``). The factory and the head's input architecture
(``anonreview.SharedPlusOwn.v1``) are registered through the project's entry points
(``pyproject.toml``: ``spacy_factories``, ``spacy_architectures``), so any environment
where the project is installed (``pip install -e .``, as ``make`` does) loads the
directory with plain ``spacy.load``, and ``spacy package`` builds a wheel of it.
Django-free.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from spacy.language import Language
from spacy.pipeline.tagger import DEFAULT_TAGGER_MODEL, Tagger
from spacy.tokens import Doc
from spacy.util import filter_spans

import engine.learning.domain_arch  # noqa: F401 - registers the head's input layer
from engine.learning.biluo import HEAD, best_tags, spans_from_tags

FACTORY = "anonreview_biluo"


class BiluoEntityTagger(Tagger):
    """A BILUO tagger whose annotation is the entities: the best tag sequence that keeps
    to the scheme (not each token's argmax), set as ``token.tag_`` and as ``doc.ents``.
    Training, loss and serialisation are the tagger's."""

    def predict(self, docs):
        if not any(len(doc) for doc in docs):
            return [[] for _ in docs]
        scores = self.model.predict(docs)
        index = {tag: i for i, tag in enumerate(self.labels)}
        return [[index[tag] for tag in tags] for tags in best_tags(self.labels, list(scores))]

    def set_annotations(self, docs, batch_tag_ids):
        if isinstance(docs, Doc):
            docs = [docs]
        super().set_annotations(docs, batch_tag_ids)
        labels = self.labels
        for doc, ids in zip(docs, batch_tag_ids, strict=True):
            tags = [labels[int(i)] for i in ids]
            ents = [
                doc.char_span(start, end, label=label)
                for start, end, label in spans_from_tags(doc, 0, tags)
            ]
            doc.ents = filter_spans([e for e in ents if e is not None])


@Language.factory(
    FACTORY,
    assigns=["token.tag", "doc.ents"],
    default_config={
        "model": DEFAULT_TAGGER_MODEL,
        "overwrite": True,
        "scorer": {"@scorers": "spacy.ner_scorer.v1"},
        "neg_prefix": "!",
        "label_smoothing": 0.0,
    },
    default_score_weights={"ents_f": 1.0, "ents_p": 0.0, "ents_r": 0.0},
)
def make_biluo(nlp, name, model, overwrite, scorer, neg_prefix, label_smoothing):
    """The ``anonreview_biluo`` factory (also the ``spacy_factories`` entry point)."""
    return BiluoEntityTagger(
        nlp.vocab,
        model,
        name,
        overwrite=overwrite,
        scorer=scorer,
        neg_prefix=neg_prefix,
        label_smoothing=label_smoothing,
    )


class NotADomainModel(ValueError):
    """The directory is no domain model (no ``biluo`` tagger head)."""


def export_pipeline(source: Path, out: Path, *, name: str = "anonreview_domain") -> Path:
    """Copy the domain model at ``source`` to ``out`` as a standard pipeline whose head
    sets ``doc.ents`` (see the module docstring). ``out`` must not exist. Returns it."""
    from spacy.util import load_config

    source, out = Path(source), Path(out)
    config = load_config(source / "config.cfg", interpolate=False)
    if HEAD not in config["nlp"]["pipeline"]:
        raise NotADomainModel(f"{source} has no '{HEAD}' tagger head")
    if out.exists():
        raise FileExistsError(f"{out} exists; choose a new folder")
    from engine.learning.domain import read_training, weights_checksum

    try:
        record = read_training(source)
    except (OSError, ValueError):
        record = {}
    if record.get("checksum_sha256") and weights_checksum(source) != record["checksum_sha256"]:
        raise NotADomainModel(f"{source.name} does not match its recorded SHA-256: not exported")
    shutil.copytree(source, out)
    head = config["components"][HEAD]
    head["factory"] = FACTORY
    head["overwrite"] = True
    head["scorer"] = {"@scorers": "spacy.ner_scorer.v1"}
    config["training"]["score_weights"] = {"ents_f": 1.0, "ents_p": 0.0, "ents_r": 0.0}
    config.to_disk(out / "config.cfg", interpolate=False)
    meta_path = out / "meta.json"
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    labels = sorted({t[2:] for t in meta.get("labels", {}).get(HEAD, []) if t[1:2] == "-"})
    meta.update(
        {
            "name": name,
            "description": "anonreview's domain detector: a BILUO tagger on frozen "
            "en_core_web_sm ner vectors beside a small own tok2vec; sets doc.ents. "
            "Needs the anonreview project installed (its spaCy entry points).",
            "author": "anonreview",
            "license": "MIT",
            "requirements": ["anonreview"],
            "components": ["tok2vec", HEAD],
            "pipeline": ["tok2vec", HEAD],
        }
    )
    meta.setdefault("labels", {})["ner"] = labels
    meta_path.write_text(json.dumps(meta, indent=2))
    if record:  # the same weights, a new config: the copy's own SHA-256, for the way back
        record.update({"checksum_sha256": weights_checksum(out), "exported_from": source.name})
        (out / "training.json").write_text(json.dumps(record, indent=2), encoding="utf-8")
    return out
