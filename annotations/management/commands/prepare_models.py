"""``python manage.py prepare_models``: build the derived model files once (docs/speed.md).

Two files: the int8 copy of the Rampart transformer and the ONNX copy of the subtype
classifier's sentence encoder, written into ``settings.MODEL_CACHE_DIR`` (``var/models``)
from the installed packages. Workers build it
on first use too; ``make migrate`` (hence ``make run``) runs this first so that workers
starting together do not wait on each other. Nothing is downloaded.
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from engine.detectors.quantize import int8_model
from engine.detectors.transformer import _model_file, rampart_model_dir


class Command(BaseCommand):
    help = "Build the int8 copy of the transformer model into MODEL_CACHE_DIR (once)."

    def handle(self, *args, **options):
        try:
            source = _model_file(rampart_model_dir())
        except (OSError, ModuleNotFoundError) as exc:
            raise CommandError(
                f"The Rampart model is not installed ({type(exc).__name__})."
            ) from exc
        path = int8_model(source, settings.MODEL_CACHE_DIR)
        if path is None:
            self.stdout.write(
                "The int8 model could not be built (is the onnx package installed?); "
                "the transformer runs the model as shipped."
            )
        else:
            self.stdout.write(f"int8 transformer model: {path}")
        from annotations.services.subtypes import subtype_encoder_prepare

        encoder = subtype_encoder_prepare()
        if encoder is None:
            self.stdout.write("No ONNX subtype encoder: subtypes are classified with torch.")
        else:
            self.stdout.write(f"ONNX subtype encoder: {encoder}")
