import boto3


# The client's parameters come from the caller: a `config` may be among
# them (metaflow's Boto3ClientProvider passes `**client_params`).
def get_client(module, client_params):
    session = boto3.session.Session()
    return session.client("s3", **client_params)
