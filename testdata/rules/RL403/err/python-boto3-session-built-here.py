import boto3

# A session built here with no default client config: its clients run
# with botocore's defaults (legacy mode, 5 attempts).
session = boto3.session.Session(region_name="eu-west-1")
organizations = session.client("organizations")


def list_accounts():
    return organizations.list_accounts()
