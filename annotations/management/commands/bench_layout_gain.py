"""Measure what approved transcripts of one layout teach the domain model.

    python manage.py bench_layout_gain [--layout stt] [--seeds 3] [--approved 4]
        [--selection 1] [--test 3] [--words 3000] [--recipe-hearings 3]
        [--recipe-words 3000] [--epochs 8] [--cpu-seconds 120]
        [--variants reviews,generated] [--jobs 1] [--model DIR] [--json]

Per seed: the model (the shipped one unless ``--model``) scored on held-out transcripts of
the layout, retrained on approved ones (each variant's data), scored again; then the
gain's mean, spread and range. ``engine.learning.layout_gain``; docs/learning.md.
"""

from django.core.management.base import BaseCommand, CommandError

from engine.learning import layout_gain


class Command(BaseCommand):
    help = (
        "Measure the domain model before and after retraining on approved transcripts of a layout."
    )

    def add_arguments(self, parser):
        d = layout_gain.GainConfig()
        parser.add_argument("--layout", default=d.layout, help=f"default {d.layout}")
        parser.add_argument("--seeds", type=int, default=d.seeds)
        parser.add_argument("--approved", type=int, default=d.approved, help="per seed")
        parser.add_argument(
            "--selection", type=int, default=d.selection, help="of the approved, held out"
        )
        parser.add_argument("--test", type=int, default=d.test, help="held-out, per seed")
        parser.add_argument("--words", type=int, default=d.words)
        parser.add_argument("--recipe-hearings", type=int, default=d.recipe_hearings)
        parser.add_argument("--recipe-words", type=int, default=d.recipe_words)
        parser.add_argument("--epochs", type=int, default=d.epochs)
        parser.add_argument("--cpu-seconds", type=float, default=d.cpu_seconds, help="per training")
        parser.add_argument(
            "--variants", default=",".join(d.variants), help="reviews, reviewsN, generated"
        )
        parser.add_argument("--jobs", type=int, default=1, help="seeds at once (processes)")
        parser.add_argument("--model", default="", help="model directory (default: shipped)")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **o):
        if o["layout"] not in layout_gain.layouts():
            raise CommandError(
                f"Unknown layout {o['layout']}; choose among {', '.join(layout_gain.layouts())}."
            )
        if o["seeds"] < 1 or o["test"] < 1 or o["approved"] <= o["selection"] or o["selection"] < 1:
            raise CommandError(
                "Need at least one seed and one test transcript, and more approved "
                "transcripts than are held out for selection (at least one)."
            )
        config = layout_gain.GainConfig(
            layout=o["layout"],
            seeds=o["seeds"],
            approved=o["approved"],
            selection=o["selection"],
            test=o["test"],
            words=o["words"],
            recipe_hearings=o["recipe_hearings"],
            recipe_words=o["recipe_words"],
            epochs=o["epochs"],
            cpu_seconds=o["cpu_seconds"],
            variants=tuple(v.strip() for v in o["variants"].split(",") if v.strip()),
            jobs=max(1, o["jobs"]),
            model_dir=o["model"],
        )
        try:
            result = layout_gain.run(
                config, report=None if o["json"] else (lambda line: self.stderr.write(line))
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        if o["json"]:
            self.stdout.write(layout_gain.dumps(result))
            return
        for variant, s in result["summary"].items():
            self.stdout.write(
                f"{variant}: exact F1 {s['before_mean']:.3f} → {s['after_mean']:.3f}, gain "
                f"{s['gain_mean'] * 100:+.1f} points (std {s['gain_std'] * 100:.1f}, "
                f"min {s['gain_min'] * 100:+.1f}, max {s['gain_max'] * 100:+.1f}) over "
                f"{len(result['seeds'])} seeds; ≥ 3 points in {s['seeds_with_gain_3_points']}"
            )
        self.stdout.write(f"{result['seconds']:.0f} s")
