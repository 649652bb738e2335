resource "aws_sqs_queue" "provider_cache" {
  name                       = "provider-cache"
  visibility_timeout_seconds = 60
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.provider_cache_parked.arn
    maxReceiveCount     = 3
  })
}

resource "aws_sqs_queue" "provider_cache_parked" {
  name = "provider-cache-parked"
}

resource "aws_lambda_function" "provider_cache" {
  function_name = "provider-cache"
  handler       = "bootstrap"
  runtime       = "provided.al2023"
  timeout       = 300
}

resource "aws_lambda_event_source_mapping" "provider_cache" {
  event_source_arn = aws_sqs_queue.provider_cache.arn
  function_name    = aws_lambda_function.provider_cache.arn
}
