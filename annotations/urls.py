from django.urls import path

from annotations.views import export

app_name = "annotations"

urlpatterns: list = [
    path("export/", export.export_page, name="export"),
    path(
        "export/transcripts/<int:transcript_id>/release.txt",
        export.release_text_download,
        name="export-release-text",
    ),
    path("export/release.zip", export.release_zip_download, name="export-release-zip"),
    path("export/key.json", export.key_download, name="export-key"),
    path(
        "export/transcripts/<int:transcript_id>/key.json",
        export.key_download,
        name="export-key-one",
    ),
    path("export/gold/", export.gold_download, name="export-gold"),
]
