from django.conf import settings
from jira import JIRA


def connect(server, user, token):
    # The client retries every request 5 times by itself, but no
    # `timeout=`: jira's default is None, so one hung try never ends.
    return JIRA(
        server=server,
        basic_auth=(user, token),
        max_retries=5,
        options={"verify": settings.JIRA_SSL_VERIFY},
    )
