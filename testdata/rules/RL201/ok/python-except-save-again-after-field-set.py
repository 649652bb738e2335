"""A report's summary is written over the stored one when there is one,
else saved as a new row of the project: the second `save()` writes an
object whose fields the `except` changed, a fallback and not a retry of
the first."""

from reports.models import Summary


def store_summary(form, project):
    summary = form.save(commit=False)
    try:
        stored = Summary.objects.get(project=project)
        summary.id = stored.id
        summary.save()
    except Summary.DoesNotExist:
        summary.project = project
        summary.save()
