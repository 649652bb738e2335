# A client for trying the server by hand: it dials this machine.
import grpc


def send_confirmation_email():
    channel = grpc.insecure_channel('[::]:8080')
    return channel


def health():
    channel = grpc.insecure_channel('127.0.0.1:8080')
    return channel
