# Facebook, 2010-09-23: clients verify a cached configuration value; an
# invalid or missing value is "fixed" by querying the persistent store, and an
# error from the store is taken as an invalid value, so the cache key is
# deleted and every later read queries the store again (no backoff, no limit).
import pymysql
from pymemcache.client.base import Client

cache = Client(("memcache.internal", 11211), timeout=1)


def is_valid(value):
    return value is not None and value.startswith(b"v1:")


def config_value(key):
    while True:
        value = cache.get(key)
        if is_valid(value):
            return value
        try:
            conn = pymysql.connect(host="configdb.internal", connect_timeout=2, read_timeout=2)
            with conn.cursor() as cur:
                cur.execute("SELECT value FROM config WHERE name = %s", (key,))
                row = cur.fetchone()
            cache.set(key, row[0])
        except pymysql.MySQLError:
            # an error reads as an invalid value: drop the key and fix it again
            cache.delete(key)
            continue
