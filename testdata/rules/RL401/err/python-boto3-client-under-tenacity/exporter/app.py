import boto3
import tenacity
from botocore.exceptions import ClientError

# No Config: botocore's legacy mode makes 5 attempts per call.
s3 = boto3.client("s3")


@tenacity.retry(
    stop=tenacity.stop_after_attempt(3),
    wait=tenacity.wait_random_exponential(multiplier=1, max=20),
    retry=tenacity.retry_if_exception_type(ClientError),
)
def upload(key, body):
    # 3 attempts here x 5 in the client = 15 requests to S3.
    return s3.put_object(Bucket="exports", Key=key, Body=body)
