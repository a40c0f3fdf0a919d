from django.db import migrations, models


def close_extra_open_rows(apps, schema_editor):
    """Rows left queued or training beside a newer one (two trainings were once let in)
    end failed, so that the constraint of one open row can be added."""
    TrainedModel = apps.get_model("annotations", "TrainedModel")
    open_rows = TrainedModel.objects.filter(status__in=["queued", "training"]).order_by(
        "-created_at", "-id"
    )
    extra = [row.pk for row in open_rows][1:]
    TrainedModel.objects.filter(pk__in=extra).update(
        status="failed", error="Another training was queued or running at the same time."
    )


class Migration(migrations.Migration):
    dependencies = [
        ("annotations", "0012_carried_rejections_become_proposals"),
        ("transcripts", "0009_job_cancelled"),
    ]

    operations = [
        migrations.AlterField(
            model_name="trainedmodel",
            name="decision",
            field=models.CharField(blank=True, max_length=600),
        ),
        migrations.RunPython(close_extra_open_rows, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="trainedmodel",
            constraint=models.UniqueConstraint(
                models.Value(1),
                condition=models.Q(("status__in", ["queued", "training"])),
                name="trained_model_one_training",
            ),
        ),
    ]
