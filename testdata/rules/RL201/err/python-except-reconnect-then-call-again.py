"""A row written again at once after the store connected again: the
object is made anew, not changed, so the second `insert` is a retry of
the same write, with no delay."""

from store import connect


class Rows:
    def __init__(self, dsn):
        self.dsn = dsn
        self.db = connect(dsn)

    def put(self, row):
        try:
            self.db.insert(row)
        except ConnectionError:
            self.db = connect(self.dsn)
            self.db.insert(row)
