resource "aws_sqs_queue" "ledger" {
  name                       = "ledger"
  visibility_timeout_seconds = 120
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.ledger_parked.arn
    maxReceiveCount     = 4
  })
}

resource "aws_sqs_queue" "ledger_parked" {
  name = "ledger-parked"
}

resource "aws_lambda_function" "ledger_writer" {
  function_name = "ledger-writer"
  handler       = "main"
  runtime       = "provided.al2023"
  timeout       = 60
}

resource "aws_lambda_event_source_mapping" "ledger" {
  event_source_arn = aws_sqs_queue.ledger.arn
  function_name    = aws_lambda_function.ledger_writer.arn
  batch_size       = 10
}
