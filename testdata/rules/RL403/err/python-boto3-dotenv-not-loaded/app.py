import boto3

# `.env` beside this file is never loaded (no load_dotenv): botocore does
# not read it, and the client retries with its legacy defaults.
sqs = boto3.client("sqs")


def poll(url):
    return sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)
