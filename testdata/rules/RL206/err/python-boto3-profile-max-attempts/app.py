import boto3

# No Config: botocore takes max_attempts from the default profile
# (.aws/config), 8 attempts, in legacy mode (no retry_mode anywhere).
s3 = boto3.client("s3")


def upload(key, body):
    s3.put_object(Bucket="invoices", Key=key, Body=body)
