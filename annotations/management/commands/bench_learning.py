"""Measure the learning loop: annotate, review with the gold as oracle, approve, retrain.

    python manage.py bench_learning [--n 10] [--retrain-every 5] [--words 3000]
        [--seed 9100] [--families bph,federal,...] [--train-seconds 120]
        [--recipe-hearings 10 --recipe-words 15000] [--no-carried] [--json] [--save]

Over N generated hearings of mixed layouts (seeds from ``--seed``, disjoint from the
recipe's and the tests'), in order: annotate with the ensemble as it stands, review as
the gold says, approve, and retrain the domain model every K approvals. Prints per
hearing: false suggestions (still to reject), carried rejections (proposed from
decisions that carry, confirmed in one input per label; and those on a gold mention),
missed gold mentions, reviewer inputs (confirmations counted), leaks after review, training seconds; then the halving figure: the first
hearing against those reviewed after 10 approvals, and each layout's first hearing
against its later ones (``annotations.benchmarks.learning.curve_summary``). The database is left as it
was; ``--save`` stores the curve for the Measurements page. docs/measurements.md.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from annotations.benchmarks import learning

COLUMNS = (
    ("hearing", "#"),
    ("family", "layout"),
    ("suggestions", "suggested"),
    ("false_suggestions", "false"),
    ("carried_rejections", "carried"),
    ("carried_on_gold", "carried on gold"),
    ("false_proposals", "false before carrying"),
    ("missed_gold", "missed"),
    ("reviewer_inputs", "inputs"),
    ("leaks_after_review", "leaks"),
    ("training_s", "training s"),
)


class Command(BaseCommand):
    help = "Measure the learning loop over generated hearings (annotate, review, approve, retrain)."

    def add_arguments(self, parser):
        parser.add_argument("--n", type=int, default=10, help="hearings (default 10)")
        parser.add_argument("--retrain-every", type=int, default=5, help="K approvals (0: never)")
        parser.add_argument("--words", type=int, default=3000, help="words per hearing")
        parser.add_argument("--seed", type=int, default=9100, help="first seed")
        parser.add_argument(
            "--families", default=",".join(learning.FAMILIES), help="layouts, in turn"
        )
        parser.add_argument(
            "--train-seconds", type=float, default=120.0, help="time limit of each retraining"
        )
        parser.add_argument(
            "--recipe-hearings",
            type=int,
            default=0,
            help="the shipped recipe's generated hearings to retrain with (default: all, 10)",
        )
        parser.add_argument(
            "--recipe-words", type=int, default=0, help="their words (default: 15,000)"
        )
        parser.add_argument(
            "--recipe-seeds", default="", help="bph seeds instead of the recipe (tests)"
        )
        parser.add_argument(
            "--no-carried",
            action="store_true",
            help="annotate without applying the decisions that carry (to compare)",
        )
        parser.add_argument("--json", action="store_true", help="print the result as JSON")
        parser.add_argument(
            "--save", action="store_true", help="store it for the Measurements page"
        )

    def handle(self, *args, **options):
        families = tuple(f.strip() for f in options["families"].split(",") if f.strip())
        unknown = sorted(set(families) - set(learning.FAMILIES))
        if unknown or not families:
            raise CommandError(
                f"Unknown layout {', '.join(unknown) or '(none)'}; "
                f"choose among {', '.join(learning.FAMILIES)}."
            )
        if options["n"] < 1:
            raise CommandError("--n must be at least 1.")
        recipe = {
            "seeds": [int(s) for s in options["recipe_seeds"].split(",") if s.strip()],
            "hearings": options["recipe_hearings"] or None,
            "words": options["recipe_words"] or None,
        }
        recipe = {k: v for k, v in recipe.items() if v} or None
        say = None if options["json"] else (lambda line: self.stderr.write(line))
        curve = learning.run(
            n=options["n"],
            retrain_every=options["retrain_every"],
            words=options["words"],
            seed=options["seed"],
            families=families,
            train_seconds=options["train_seconds"],
            recipe=recipe,
            carried=not options["no_carried"],
            report=say,
        )
        result = curve.as_dict()
        if options["save"]:
            learning.save(result)
        if options["json"]:
            self.stdout.write(json.dumps(result, indent=2))
            return
        self.stdout.write("\t".join(title for _key, title in COLUMNS))
        for row in result["hearings"]:
            self.stdout.write(
                "\t".join("—" if row[key] is None else str(row[key]) for key, _title in COLUMNS)
            )
        for line in result["skipped"]:
            self.stdout.write(f"skipped: {line}")
        self.stdout.write(f"{len(result['hearings'])} hearings in {result['seconds']:.0f} s")
        summary = result["summary"]
        if summary.get("later_hearings"):
            self.stdout.write(
                f"false suggestions: first hearing {summary['first_false_suggestions']}, "
                f"hearings {summary['later_hearings'][0]}-{summary['later_hearings'][-1]} "
                f"mean {summary['later_mean_false_suggestions']} (ratio {summary['ratio']}); "
                "per layout, first → later mean: "
                + ", ".join(
                    f"{family} {f['first']} → {f['later_mean']}"
                    for family, f in summary["per_family"].items()
                    if f["later"]
                )
                + f" (together {summary['per_family_ratio']}; possible misses apart "
                f"{summary['per_family_ratio_without_possible_misses']}); leaks after review: first "
                f"{summary['leaks_after_review_first']}, later mean "
                f"{summary['leaks_after_review_later_mean']}; "
                f"goal met: {'yes' if summary['goal_met'] else 'no'}; the machine's own "
                "false proposals halved per layout (possible misses apart, no rise in "
                f"misses or leaks): {'yes' if summary['proposals_goal_met'] else 'no'}"
            )
