import pika

# Three connects, five seconds apart: a broker that is still down after
# that is left to the supervisor that restarts the worker.
PARAMS = pika.ConnectionParameters(
    host="orders-mq",
    connection_attempts=3,
    retry_delay=5,
)


def consume(callback):
    connection = pika.BlockingConnection(PARAMS)
    channel = connection.channel()
    channel.basic_consume(queue="orders", on_message_callback=callback)
    channel.start_consuming()
