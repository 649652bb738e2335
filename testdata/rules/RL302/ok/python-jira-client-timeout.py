from django.conf import settings
from jira import JIRA


def connect(server, user, token):
    # Each try is bounded: 10 s to connect, 30 s to read.
    return JIRA(
        server=server,
        basic_auth=(user, token),
        max_retries=5,
        timeout=(10, 30),
        options={"verify": settings.JIRA_SSL_VERIFY},
    )
