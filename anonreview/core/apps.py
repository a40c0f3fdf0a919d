from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "anonreview.core"
    label = "core"
    default_auto_field = "django.db.models.BigAutoField"
