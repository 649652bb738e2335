import boto3

# No Config: the compose service's env_file (aws.env) sets standard mode,
# whose retry quota stops retries while most calls fail.
sqs = boto3.client("sqs")


def poll(url):
    return sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20)
