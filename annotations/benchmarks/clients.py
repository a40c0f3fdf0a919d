"""The benchmarks' in-process test client: its requests come as HTTPS, so that what is
timed is the view, whatever the deployment's HTTPS setting (with ``HTTPS=1``, the default
when DEBUG is off, ``SECURE_SSL_REDIRECT`` answered every plain request 301 and
``bench_review --lead`` stopped at its first page)."""

from django.test import Client


class BenchClient(Client):
    """A ``django.test.Client`` whose every request is a secure one (``request.is_secure()``)."""

    def generic(self, *args, secure=True, **kwargs):
        return super().generic(*args, secure=True, **kwargs)


def bench_client(**defaults) -> BenchClient:
    return BenchClient(**defaults)
