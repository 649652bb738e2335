# AWS_MAX_ATTEMPTS counts attempts, and so does `total_max_attempts`.
import os

import boto3
from botocore.config import Config

config = Config(
    retries={
        "total_max_attempts": int(os.getenv("AWS_MAX_ATTEMPTS", "5")),
        "mode": "standard",
    },
    connect_timeout=10,
)

s3 = boto3.client("s3", config=config)
