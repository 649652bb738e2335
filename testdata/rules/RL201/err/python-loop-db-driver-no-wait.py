# A `while True` loop whose `try` asks the database through pymysql and
# whose `except` goes round at once: every client re-queries the store as
# fast as it can while the store fails (issue 28, Facebook 2010).
import pymysql


def load_setting(name):
    while True:
        try:
            conn = pymysql.connect(host="settings-db", connect_timeout=2)
            with conn.cursor() as cur:
                cur.execute("SELECT value FROM settings WHERE name = %s", (name,))
                return cur.fetchone()
        except pymysql.MySQLError:
            continue
