import boto3

# No Config: the compose service's environment sets the standard mode, whose
# retry quota stops retries while most calls fail (docker-compose.yml).
sqs = boto3.client("sqs")


def poll(url):
    return sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)
