"""What other apps plug into ``transcripts``: plain callbacks, no signals.

``transcripts`` never imports ``annotations``; ``annotations`` registers its functions
here in ``AppConfig.ready()``:

- ``annotation_start(transcript=, user=) -> Job``: queue the automatic annotation of a
  freshly imported transcript (the import service calls it after the import);
- ``suggestions_copy(source=, target=) -> int``: copy the machine's suggestions of
  ``source`` to ``target`` (a second annotator's copy); returns how many;
- ``job_failed(job=)``: a job was failed from outside its task (the stale sweep, a
  cancel, a lost connection): what the app keeps about it follows (a trained model
  row no longer says "training").

Unregistered hooks are ``None``: an import then queues no annotation (and says so),
and a copy starts with no suggestions.
"""

from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Hooks:
    annotation_start: Callable | None = None
    suggestions_copy: Callable | None = None
    job_failed: Callable | None = None


hooks = Hooks()


def register(
    *,
    annotation_start: Callable | None = None,
    suggestions_copy: Callable | None = None,
    job_failed: Callable | None = None,
):
    """Register the callbacks (an app's ``ready()``); later registrations replace earlier."""
    if job_failed is not None:
        hooks.job_failed = job_failed
    if annotation_start is not None:
        hooks.annotation_start = annotation_start
    if suggestions_copy is not None:
        hooks.suggestions_copy = suggestions_copy
