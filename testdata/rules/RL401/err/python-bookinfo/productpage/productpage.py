# The bookinfo front end: it gives `reviews` two tries of 3 s each.
import os

import requests

servicesDomain = "" if (os.environ.get("SERVICES_DOMAIN") is None) else "." + os.environ.get("SERVICES_DOMAIN")
detailsHostname = "details" if (os.environ.get("DETAILS_HOSTNAME") is None) else os.environ.get("DETAILS_HOSTNAME")
reviewsHostname = "reviews" if (os.environ.get("REVIEWS_HOSTNAME") is None) else os.environ.get("REVIEWS_HOSTNAME")

details = {
    "name": "http://{0}{1}:9080".format(detailsHostname, servicesDomain),
    "endpoint": "details",
}

reviews = {
    "name": "http://{0}{1}:9080".format(reviewsHostname, servicesDomain),
    "endpoint": "reviews",
}


def send_request(url, **kwargs):
    return requests.get(url, **kwargs)


def getProductDetails(product_id, headers):
    try:
        url = details['name'] + "/" + details['endpoint'] + "/" + str(product_id)
        res = send_request(url, headers=headers, timeout=3.0)
    except requests.exceptions.RequestException:
        res = None
    if res and res.status_code == 200:
        return 200, res.json()
    return 500, {}


def getProductReviews(product_id, headers):
    for _ in range(2):
        try:
            url = reviews['name'] + "/" + reviews['endpoint'] + "/" + str(product_id)
            res = send_request(url, headers=headers, timeout=3.0)
        except requests.exceptions.RequestException:
            res = None
        if res and res.status_code == 200:
            return 200, res.json()
    return 500, {}
