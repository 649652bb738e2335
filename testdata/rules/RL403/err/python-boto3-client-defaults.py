import boto3

# No Config: botocore retries in legacy mode, 5 attempts, by itself.
s3 = boto3.client("s3")


def upload(key, body):
    s3.put_object(Bucket="invoices", Key=key, Body=body)
