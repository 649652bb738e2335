import boto3

# Run by the compose service built from this folder: which profile it
# reads, and what that profile sets of the retries, comes from the host.
s3 = boto3.client("s3")
print(s3.list_buckets())
