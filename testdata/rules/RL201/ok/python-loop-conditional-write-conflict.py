from botocore.exceptions import ClientError

MAX_WRITE_ATTEMPTS = 3


class LostRace(Exception):
    pass


def set_flag(table, key, name, value):
    """Write one flag into a document another writer may change too.

    Each write is conditional on the shape just read; a lost race reads the
    document again and writes once more. Any other error is raised: only
    the failed condition goes round, and it ends when the other writer is
    done, so no delay is needed between the passes.
    """
    for _ in range(MAX_WRITE_ATTEMPTS):
        item = table.get_item(Key={"key": key}, ConsistentRead=True).get("Item")
        try:
            if item is None:
                table.put_item(
                    Item={"key": key, "flags": {name: value}},
                    ConditionExpression="attribute_not_exists(#k)",
                    ExpressionAttributeNames={"#k": "key"},
                )
            else:
                table.update_item(
                    Key={"key": key},
                    UpdateExpression="SET flags.#n = :v",
                    ConditionExpression="attribute_exists(flags)",
                    ExpressionAttributeNames={"#n": name},
                    ExpressionAttributeValues={":v": value},
                )
            return
        except ClientError as exc:
            if exc.response["Error"]["Code"] != "ConditionalCheckFailedException":
                raise
    raise LostRace(key)
