from dapr.clients import DaprClient

with DaprClient() as client:
    client.invoke_method(method_name="ship", app_id="orders", data=b"{}", http_verb="POST")
