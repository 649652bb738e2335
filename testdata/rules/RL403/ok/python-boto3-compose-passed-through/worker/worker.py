import boto3

# No Config: AWS_MAX_ATTEMPTS and AWS_RETRY_MODE come from the shell that
# runs docker compose (docker-compose.yml lists them without values).
sqs = boto3.client("sqs")


def poll(url):
    return sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)
