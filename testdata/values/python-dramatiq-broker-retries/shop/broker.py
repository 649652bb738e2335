import dramatiq
from dramatiq.brokers.redis import RedisBroker
from dramatiq.middleware import Retries

broker = RedisBroker(url="redis://redis:6379/0", middleware=[])
# Every actor retries 3 times, from 1 s (the options are in milliseconds).
broker.add_middleware(Retries(max_retries=3, min_backoff=1000))
dramatiq.set_broker(broker)
