# The shape of prowler's AwsProvider: the session is given a default
# client config, which every client built from it uses (standard mode,
# 3 retries), though no client call names it.
import boto3
from botocore.config import Config

session_config = Config(retries={"max_attempts": 3, "mode": "standard"})

session = boto3.session.Session(profile_name="audit")
session._session.set_default_client_config(session_config)
sts = session.client("sts")


def whoami():
    return sts.get_caller_identity()
