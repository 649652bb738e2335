import boto3

# The session's profile sets the retry mode and attempts (.aws/config).
session = boto3.Session(profile_name="batch")
sqs = session.client("sqs")


def drain(url):
    return sqs.receive_message(QueueUrl=url, WaitTimeSeconds=10)
