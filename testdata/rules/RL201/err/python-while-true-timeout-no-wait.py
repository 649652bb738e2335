import requests


def playlist_subscribers(playlist_id):
    # Every request that timed out is sent again at once, with no wait.
    while True:
        try:
            return requests.get(
                f"http://popcount/playlists/{playlist_id}/subscribers", timeout=2
            ).json()
        except requests.Timeout:
            continue
