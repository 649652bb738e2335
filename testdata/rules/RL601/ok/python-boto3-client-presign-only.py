# A client used only to sign a token locally: `generate_db_auth_token`
# computes a signature with the session's credentials and returns it; no
# request goes to AWS, so botocore's retries never run.
import boto3


def database_password(host, port, user, region):
    session = boto3.Session()
    client = session.client("rds", region_name=region)
    token = client.generate_db_auth_token(
        DBHostname=host, Port=port, DBUsername=user, Region=region
    )
    return token


def download_link(bucket, key):
    return boto3.client("s3").generate_presigned_url(
        "get_object", Params={"Bucket": bucket, "Key": key}, ExpiresIn=300
    )
