import time


class RetryOnSyncError:
    def execute(self):
        for i in range(30, -1, -1):
            try:
                self.client.execute(self.statement)
                break
            except Exception as e:
                # Only a replica behind on metadata (code 517) goes round.
                if i and e.code == 517:
                    time.sleep(1)
                else:
                    raise
