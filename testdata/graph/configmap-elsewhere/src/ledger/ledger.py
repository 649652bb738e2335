import os

import psycopg2


def connect():
    return psycopg2.connect(host=os.environ.get("LEDGER_DB_HOST"), dbname="ledger")
