def ask_port():
    # Asks until the answer parses: no call is sent again, so this is not a
    # retry.
    while True:
        try:
            return int(input("port: "))
        except ValueError:
            continue
