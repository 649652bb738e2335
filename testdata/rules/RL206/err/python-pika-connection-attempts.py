import pika

# pika tries the connect connection_attempts times, retry_delay apart, each
# attempt bounded by stack_timeout (15 s by default): thirty attempts keep
# a worker starting for about nine minutes against a broker that is down.
PARAMS = pika.ConnectionParameters(
    host="orders-mq",
    connection_attempts=30,
    retry_delay=3,
)


def consume(callback):
    connection = pika.BlockingConnection(PARAMS)
    channel = connection.channel()
    channel.basic_consume(queue="orders", on_message_callback=callback)
    channel.start_consuming()
