// Polly validates `MaxHedgedAttempts` from 1 to 10: 20 fails at start-up.
builder.Services.AddHttpClient("search")
    .AddStandardHedgingHandler()
    .Configure(o => o.Hedging.MaxHedgedAttempts = 20);
