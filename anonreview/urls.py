from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="transcripts:list", permanent=False)),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("transcripts/", include("transcripts.urls")),
    path("", include("annotations.urls")),
]

# A refused upload of too many files (DATA_UPLOAD_MAX_NUMBER_FILES) is answered in words
# on the upload page, not with a bare "Bad Request (400)".
handler400 = "transcripts.views.importing.bad_request"
