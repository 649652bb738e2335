# A Python file the reader opens (`sleep(`) and finds nothing in.
import time


def beat(log):
    for n in range(10):
        log(n)
        time.sleep(1)
