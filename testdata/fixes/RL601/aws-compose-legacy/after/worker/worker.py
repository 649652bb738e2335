import boto3

# No Config: the compose service's environment sets AWS_MAX_ATTEMPTS but no
# AWS_RETRY_MODE, and botocore's mode without one is legacy, which has no
# retry quota (docker-compose.yml).
sqs = boto3.client("sqs")


def poll(url):
    return sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)
