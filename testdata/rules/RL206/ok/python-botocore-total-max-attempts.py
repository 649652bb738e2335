import boto3
from botocore.config import Config

# `total_max_attempts` counts attempts, the first one included.
config = Config(retries={"total_max_attempts": 5, "mode": "standard"}, read_timeout=5)
s3 = boto3.client("s3", config=config)
