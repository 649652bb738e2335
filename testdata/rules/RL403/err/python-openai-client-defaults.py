from openai import OpenAI

# No max_retries: every request is tried 3 times by the client itself.
client = OpenAI()


def embed(texts):
    return client.embeddings.create(model="text-embedding-3-small", input=texts)


def make_client(api_key, base_url=None):
    # The dictionary never gets max_retries: the default of 2 applies.
    client_kw = {"api_key": api_key}
    if base_url:
        client_kw["base_url"] = base_url
    return OpenAI(**client_kw)
