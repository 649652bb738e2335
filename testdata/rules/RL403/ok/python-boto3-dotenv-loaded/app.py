import boto3
from dotenv import load_dotenv

# `.env` beside this file is loaded into the process environment before
# the client is built: botocore reads AWS_RETRY_MODE and AWS_MAX_ATTEMPTS
# from it.
load_dotenv()
sqs = boto3.client("sqs")


def poll(url):
    return sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)
