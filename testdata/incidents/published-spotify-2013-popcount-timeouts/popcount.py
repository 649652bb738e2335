"""Desktop client's legacy Popcount fetch: every request that timed out was
sent again, with no back-off."""
import requests


def playlist_subscribers(playlist_id):
    while True:
        try:
            return requests.get(
                f"http://popcount/playlists/{playlist_id}/subscribers", timeout=2
            ).json()
        except requests.Timeout:
            continue
