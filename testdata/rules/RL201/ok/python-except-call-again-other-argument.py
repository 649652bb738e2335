"""A task checkbox is ticked in the incident's document, or, when that
document does not hold it, in the review's: the second call names another
document, a fallback and not a retry of the first."""

from tracker.errors import NotFoundError


class TaskSync:
    def __init__(self, docs):
        self.docs = docs

    def tick(self, incident, task_key, done):
        try:
            doc_id = incident.main_document.id
            self.docs.client.set_checkbox(doc_id, task_key, checked=done)
        except NotFoundError:
            doc_id = incident.review_document.id
            self.docs.client.set_checkbox(doc_id, task_key, checked=done)
