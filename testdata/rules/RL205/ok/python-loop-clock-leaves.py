import logging
import time

from django.db import OperationalError, connections

logger = logging.getLogger(__name__)


def wait_for_db(database, wait_for):
    # Ends with the process when the database is not up in `wait_for`
    # seconds: the clock caps the loop.
    start = time.monotonic()
    while True:
        if time.monotonic() - start > wait_for:
            exit(f"no database within {wait_for} seconds")
        conn = connections.create_connection(database)
        try:
            with conn.temporary_connection() as cursor:
                cursor.execute("SELECT 1")
            break
        except OperationalError as e:
            logger.warning("database not ready, retrying: %s", e)
        time.sleep(0.25)
