// App-vNext/Polly samples/Chaos: Polly's documented switch with a `when`
// guard. The first arm is IsTransient (5xx, timeouts): ambiguous failures
// retried for every method.
var services = new ServiceCollection();
var httpClientBuilder = services.AddHttpClient<TodosClient>(client => client.BaseAddress = new Uri("https://todos.example"));

httpClientBuilder
    .AddStandardResilienceHandler()
    .Configure(options =>
    {
        options.Retry.ShouldHandle = args => args.Outcome switch
        {
            {} outcome when HttpClientResiliencePredicates.IsTransient(outcome) => PredicateResult.True(),
            { Exception: InvalidOperationException } => PredicateResult.True(),
            _ => PredicateResult.False()
        };
    });
