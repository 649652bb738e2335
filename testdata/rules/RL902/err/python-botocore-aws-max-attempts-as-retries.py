# The shape of aws/aws-sdk-pandas `awswrangler/_utils.py`: the value of
# AWS_MAX_ATTEMPTS (attempts, the first included) is passed as the Config's
# max_attempts (retries), so AWS_MAX_ATTEMPTS=5 makes 6 attempts.
import os

import boto3
import botocore.config


def default_botocore_config() -> botocore.config.Config:
    retries_config = {
        "max_attempts": int(os.getenv("AWS_MAX_ATTEMPTS", "5")),
    }
    return botocore.config.Config(
        retries=retries_config,
        connect_timeout=10,
        max_pool_connections=10,
    )


s3 = boto3.client("s3", config=default_botocore_config())


# A settings object mirroring the variable: the same count of attempts.
class Settings:
    AWS_MAX_ATTEMPTS = int(os.environ.get("AWS_MAX_ATTEMPTS", "3"))


settings = Settings()
sqs = boto3.client(
    "sqs",
    config=botocore.config.Config(retries={"max_attempts": settings.AWS_MAX_ATTEMPTS}),
)
