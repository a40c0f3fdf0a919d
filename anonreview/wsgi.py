import os

from django.core.wsgi import get_wsgi_application

from engine.pseudonymize.word_lists import load_word_lists

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "anonreview.settings")
application = get_wsgi_application()
# the leak check's word lists before the first request (engine/pseudonymize/word_lists.py)
load_word_lists()
