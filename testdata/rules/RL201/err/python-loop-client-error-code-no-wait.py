from botocore.exceptions import ClientError


def put_event(table, event):
    """Throttling is retried at once, 5 times: the code named is not a
    write conflict but the table saying it is overloaded, and asking again
    at once adds to the load."""
    for _ in range(5):
        try:
            table.put_item(Item=event)
            return
        except ClientError as exc:
            if exc.response["Error"]["Code"] != "ProvisionedThroughputExceededException":
                raise
