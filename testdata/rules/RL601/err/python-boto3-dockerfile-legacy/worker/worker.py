import boto3

# No Config: the image (Dockerfile) sets AWS_MAX_ATTEMPTS but no
# AWS_RETRY_MODE, and botocore's mode without one is legacy, which has no
# retry quota.
sqs = boto3.client("sqs")


def poll(url):
    return sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)
