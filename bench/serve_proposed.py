"""``leishen serve`` with the start-up line proposed for api/app.py, for the bench (bench/startup.py).

    python bench/serve_proposed.py serve --port 8000

The app's lifespan makes its reader with ``Reader(app.state.store, settings.corpus)``; the proposed line is
``app.state.reader = book.reader_over(app.state.store, settings.corpus)`` (the disk-cached reader,
warmed by one reading). This script puts that in place in its own process only (no file is changed), so the
bench can time the first reading both ways until api/app.py takes the line.
"""

import sys

from leishen import readings
from leishen.api import app
from leishen.cli.main import main
from leishen.service import book

app.Reader = lambda store, corpus=None: book.reader_over(store, corpus)

if __name__ == "__main__":
    sys.argv[0] = "leishen"
    main()
