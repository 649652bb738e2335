import boto3
from botocore.config import Config

config = Config(retries={"mode": "standard", "total_max_attempts": 3}, read_timeout=10)
s3 = boto3.client("s3", config=config)


def upload(key, body):
    s3.put_object(Bucket="invoices", Key=key, Body=body)
