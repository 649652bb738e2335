# A read loop over a cursor: the database call is outside the `try`, and
# what goes round is a row that does not parse, not the query.
import json

import psycopg2


def settings(dsn):
    conn = psycopg2.connect(dsn)
    cur = conn.cursor()
    cur.execute("SELECT body FROM settings")
    out = []
    while True:
        row = cur.fetchone()
        if row is None:
            break
        try:
            out.append(json.loads(row[0]))
        except ValueError:
            continue
    return out
