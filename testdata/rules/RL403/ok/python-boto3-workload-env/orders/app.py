import boto3

# No Config here: botocore reads AWS_MAX_ATTEMPTS and AWS_RETRY_MODE from
# the environment the Deployment gives this program (k8s/orders.yaml).
s3 = boto3.client("s3")


def upload(key, body):
    s3.put_object(Bucket="invoices", Key=key, Body=body)
