# A setting of the program's own whose name contains AWS_MAX_ATTEMPTS: what
# it counts is the program's to say, not the SDK's variable.
import os

import boto3
from botocore.config import Config

S3_AWS_MAX_ATTEMPTS = int(os.getenv("S3_AWS_MAX_ATTEMPTS", "3"))

s3 = boto3.client(
    "s3",
    config=Config(retries={"max_attempts": S3_AWS_MAX_ATTEMPTS, "mode": "standard"}),
)
