import boto3
from botocore.config import Config

# In a botocore `Config`, `max_attempts` counts retries: 5 means 6 attempts
# (in ~/.aws/config the same key counts attempts).
config = Config(retries={"max_attempts": 5, "mode": "standard"}, read_timeout=5)
s3 = boto3.client("s3", config=config)
