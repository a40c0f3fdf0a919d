"""The domain head's input: the shared frozen vectors beside a small trainable embedding.

``anonreview.SharedPlusOwn.v1`` (a spaCy architecture, registered on import) gives each
token the base's frozen ``ner`` vectors (read from ``doc.tensor`` through a
``Tok2VecListener``: the shared parse computes them once for every head,
``engine.detectors.heads``) concatenated with a small ``tok2vec`` of the head's own
(``width`` 32, ``depth`` 2 by default), trained with the head. The frozen vectors carry
what the pretrained model knows of English; the small one learns what they do not
encode, such as a surname in capitals after a title in a speaker tag. It costs a few
percent of the frozen ``tok2vec`` at inference. Django-free.
"""

from __future__ import annotations

from typing import Any

NAME = "anonreview.SharedPlusOwn.v1"


def _forward(model: Any, docs: list, is_train: bool):
    shared, own = model.layers
    ys_shared, back_shared = shared(docs, is_train)
    ys_own, back_own = own(docs, is_train)
    xp = model.ops.xp
    width = model.get_dim("nO") - own.get_dim("nO")
    out = [xp.hstack((a, b)) for a, b in zip(ys_shared, ys_own, strict=True)]

    def backprop(d_out: list) -> list:
        back_shared([model.ops.as_contig(d[:, :width]) for d in d_out])
        return back_own([model.ops.as_contig(d[:, width:]) for d in d_out])

    return out, backprop


def _init(model: Any, X: Any = None, Y: Any = None) -> None:
    for layer in model.layers:
        layer.initialize(X=X)


def shared_plus_own(
    width: int, upstream: str, own_width: int, own_depth: int, own_rows: int
) -> Any:
    """The listener to ``upstream`` (``width`` wide) beside an own ``tok2vec``."""
    from spacy.ml.models.tok2vec import (
        MaxoutWindowEncoder,
        MultiHashEmbed,
        build_Tok2Vec_model,
        tok2vec_listener_v1,
    )
    from thinc.api import Model

    listener = tok2vec_listener_v1(width=width, upstream=upstream)
    own = build_Tok2Vec_model(
        embed=MultiHashEmbed(
            width=own_width,
            attrs=["NORM", "PREFIX", "SUFFIX", "SHAPE"],
            rows=[own_rows, own_rows // 4, own_rows // 4, own_rows // 4],
            include_static_vectors=False,
        ),
        encode=MaxoutWindowEncoder(
            width=own_width, depth=own_depth, window_size=1, maxout_pieces=3
        ),
    )
    return Model(
        "shared-plus-own",
        _forward,
        init=_init,
        layers=[listener, own],
        dims={"nO": width + own_width},
    )


def register() -> None:
    """Register the architecture with spaCy (idempotent; before a model is built or
    loaded)."""
    from spacy import registry

    try:
        registry.architectures.get(NAME)
    except Exception:  # noqa: BLE001 - catalogue raises its own RegistryError
        registry.architectures.register(NAME, func=shared_plus_own)


register()
