from django.urls import path  # noqa: F401

app_name = "annotations"

urlpatterns: list = []
