# The session comes from the caller (prowler's services get
# `provider.session.current_session`): whether it carries a default client
# config is not known in this file.


def list_accounts(session):
    organizations = session.client("organizations")
    return organizations.list_accounts()
