resource "aws_sqs_queue" "bib_production" {
  name                        = "BibProduction.fifo"
  fifo_queue                  = true
  content_based_deduplication = true
  visibility_timeout_seconds  = 30
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.bib_production_parked.arn
    maxReceiveCount     = 1000
  })
}

resource "aws_sqs_queue" "bib_production_parked" {
  name       = "BibProductionParked.fifo"
  fifo_queue = true
}
