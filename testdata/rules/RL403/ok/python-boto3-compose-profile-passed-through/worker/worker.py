import boto3

# No Config: AWS_PROFILE comes from the shell that runs docker compose: which
# profile is read, and what it sets, is not known here (not `[default]`).
sqs = boto3.client("sqs")


def poll(url):
    return sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)
